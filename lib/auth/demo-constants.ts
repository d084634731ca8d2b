/** The account `npm run demo` signs visitors in as (see bootstrap.ts). */
export const DEMO_ADMIN_EMAIL = "demo-admin@weir.local";
