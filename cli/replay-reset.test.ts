import { describe, expect, it } from "vitest";
import { cliTestDatabase } from "./weir.fixture";

const { weir } = cliTestDatabase();

describe("weir replay-reset", () => {
  it("asks for what to reset, where the id lives and where NATS is, before connecting anywhere", async () => {
    const noSubject = await weir(["replay-reset", "--stream", "ORDERS", "--from-seq", "1", "--to-seq", "2", "--id-header", "Nats-Msg-Id"]);
    expect(noSubject.code).toBe(2);
    expect(noSubject.stderr).toContain("--service <id>");
    const noId = await weir(["replay-reset", "--stream", "ORDERS", "--group", "g", "--from-seq", "1", "--to-seq", "2"]);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain("--id-header <name> or --id-path <pointer>");
    const noNats = await weir(["replay-reset", "--stream", "ORDERS", "--group", "g", "--from-seq", "1", "--to-seq", "2", "--id-header", "Nats-Msg-Id"], { WEIR_NATS_URL: "" });
    expect(noNats.code).toBe(2);
    expect(noNats.stderr).toContain("--nats-url");
  }, 60_000);
});
