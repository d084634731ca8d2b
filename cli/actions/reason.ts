import { CliError, EXIT } from "../exit-codes";

/** A change that is audited says why; the schema judges the text, this only asks for it. */
export function requireReason(reason: string | undefined): string {
  if (!reason?.trim()) throw new CliError("--reason is required: say why, for the audit log", EXIT.usage);
  return reason;
}
