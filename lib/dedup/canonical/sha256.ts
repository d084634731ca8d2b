import crypto from "node:crypto";

/**
 * SHA-256 as lowercase hex. Node 20.12+ has the one-shot `crypto.hash`, about
 * twice as fast as createHash for the few hundred bytes of a typical payload
 * (no Hash object per call); older Node 20 releases fall back to createHash.
 */
export const sha256Hex: (data: Uint8Array | string) => string =
  typeof crypto.hash === "function"
    ? (data) => crypto.hash("sha256", data, "hex")
    : (data) => crypto.createHash("sha256").update(data).digest("hex");
