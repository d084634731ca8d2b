import path from "node:path";

/**
 * The people the browser specs sign in as, on the throwaway local e2e
 * database. The admin is created by weir itself at start (WEIR_ADMIN_EMAIL),
 * the others by seed-auth.ts before the server starts.
 */
export const E2E_USERS = {
  admin: { email: "admin@e2e.weir.test", password: "e2e-admin-password" },
  operator: { email: "operator@e2e.weir.test", password: "e2e-operator-password" },
  viewer: { email: "viewer@e2e.weir.test", password: "e2e-viewer-password" },
} as const;

export type E2eRole = keyof typeof E2E_USERS;

/** Where the setup project saves each role's signed-in browser state. */
export const storageStateOf = (role: E2eRole) => path.join(import.meta.dirname, "..", ".artifacts", `${role}.json`);
