import { hashJsonAt } from "@/lib/dedup/canonical/canonical-json";
import { DEFAULT_MAX_DEPTH, JsonScanner } from "@/lib/dedup/canonical/json-scanner";

/**
 * Structural hash of one top-level member of a JSON object text, taken from the
 * text itself so that numbers keep their exact digits (a parsed JS value would
 * make 9007199254740993 and 9007199254740992 equal). The text must already have
 * been validated as an object with no duplicate fields; undefined when absent.
 */
export function hashOfMember(text: string, member: string): string | undefined {
  const scanner = new JsonScanner(text, 0, DEFAULT_MAX_DEPTH);
  scanner.skipWs();
  if (text.charCodeAt(scanner.pos) !== 0x7b) return undefined;
  scanner.pos++;
  scanner.skipWs();
  while (text.charCodeAt(scanner.pos) === 0x22) {
    const name = scanner.readString();
    scanner.skipWs();
    scanner.pos++; // the ":" a valid object has here
    const { hash, end } = hashJsonAt(text, scanner.pos);
    if (name === member) return hash;
    scanner.pos = end;
    scanner.skipWs();
    if (text.charCodeAt(scanner.pos) !== 0x2c) return undefined;
    scanner.pos++;
    scanner.skipWs();
  }
  return undefined;
}
