/** Flags shared by every bench script: `--quick` (CI: small data, short runs) and `--seconds N`. */
export const quick = process.argv.includes("--quick");

export function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

export const hasFlag = (name: string) => process.argv.includes(`--${name}`);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs a bench's main, always reaching its cleanup, and exits non-zero only when the script itself broke. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      process.exit(1);
    },
  );
}

/** `--only a,b`: which contenders to run (all when absent). */
export function onlyFlag(): (name: string) => boolean {
  const at = process.argv.indexOf("--only");
  if (at < 0) return () => true;
  const names = new Set((process.argv[at + 1] ?? "").split(","));
  return (name) => names.has(name);
}

/** Every `--node-arg X`: a node or V8 flag for the served weir (e.g. --min-semi-space-size=16), for tuning experiments. */
export function nodeArgFlags(): string[] {
  return process.argv.flatMap((arg, i) => (arg === "--node-arg" && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
}

/** `--env K=V` (repeatable): extra environment for the weir server, for tuning experiments. */
export function envFlags(): Record<string, string> {
  const env: Record<string, string> = {};
  process.argv.forEach((arg, i) => {
    if (arg !== "--env") return;
    const [key, ...rest] = (process.argv[i + 1] ?? "").split("=");
    if (key) env[key] = rest.join("=");
  });
  return env;
}
