import { ConfigError, loadConfig } from "./index";

/**
 * Imported first by the server and the CLI, before any module reads a setting at load:
 * a variable weir cannot use stops the process here, with every bad one named.
 */
try {
  loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`weir cannot start: ${err.message}`);
  process.exit(2);
}
