/** The e2e database: always local (see assertLocal), recreated before every run. */
const admin = new URL(process.env.WEIR_TEST_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
// Overridable so that two checkouts on one machine can run their suites side by side.
export const E2E_DATABASE = process.env.WEIR_E2E_DATABASE ?? "weir_e2e";
admin.pathname = `/${E2E_DATABASE}`;
export const e2eDatabaseUrl = admin.toString();
