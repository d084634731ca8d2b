import { afterAll, beforeAll } from "vitest";

/** Sets environment variables for a test file (before its other beforeAll hooks, when called first), and puts them back after. */
export function envForFile(values: Record<string, string>): void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  beforeAll(() => void Object.assign(process.env, values));
  afterAll(() => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}
