import { describe, expect, it } from "vitest";
import { describeError } from "@/cli/errors";
import { EXIT } from "@/cli/exit-codes";
import { toActionFailure } from "@/lib/console/action-result";
import { failureResponse } from "@/lib/console/route-failure";
import { errorStatusAndCode, errorToResult } from "@/lib/http/respond";
import * as errors from "./errors";

// One instance of every typed error; a new class without a sample here fails the first test.
const SAMPLES: Record<string, errors.WeirError> = {
  WeirError: new errors.WeirError(418, "conflict", "a plain typed error"),
  ValidationError: new errors.ValidationError("ttlSeconds: too small", "ttlSeconds"),
  PayloadTooLargeError: new errors.PayloadTooLargeError(1024),
  NotFoundError: new errors.NotFoundError("service s-1 is not registered", "serviceId"),
  ConflictError: new errors.ConflictError("the key is in progress", "in_progress", { attempt: 2 }),
  UnprocessableError: new errors.UnprocessableError("the key was used for a different request", "mismatch"),
  UnauthorizedError: new errors.UnauthorizedError(),
  TokenExpiredError: new errors.TokenExpiredError(new Date("2026-01-15T10:00:00Z")),
  ForbiddenError: new errors.ForbiddenError("the token's scope does not cover this service"),
  ReauthenticationRequiredError: new errors.ReauthenticationRequiredError(15),
  RateLimitedError: new errors.RateLimitedError(7),
  StoreUnavailableError: new errors.StoreUnavailableError(2),
  CoordinatorUnavailableError: new errors.CoordinatorUnavailableError(2),
  OverloadedError: new errors.OverloadedError(1),
};

const typedErrorClasses = () =>
  Object.entries(errors).filter(([, value]) => typeof value === "function" && (value === errors.WeirError || value.prototype instanceof errors.WeirError));

const cliExit = (status: number) => (status === 400 || status === 413 ? EXIT.usage : status === 429 || status === 503 ? EXIT.unavailable : EXIT.refused);

describe("typed errors, mapped once per transport", () => {
  it("has a sample of every typed error class in lib/errors.ts", () => {
    const names = typedErrorClasses().map(([name]) => name);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !(name in SAMPLES))).toEqual([]);
    for (const name of names) expect(SAMPLES[name]!.constructor.name).toBe(name);
  });

  describe.each(Object.entries(SAMPLES))("%s", (_name, err) => {
    it("HTTP: its own status and code, its message, its field", () => {
      const result = errorToResult(err, "req-1");
      const body = result.body as { error: { code: string; message: string; field?: string } };
      expect(result.status).toBe(err.status);
      expect(body.error.code).toBe(err.code);
      expect(body.error.message).toBe(err.message);
      if (err.field) expect(body.error.field).toBe(err.field);
      expect(errorStatusAndCode(err)).toEqual({ status: err.status, code: err.code });
      const retry = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retry !== undefined) expect(result.headers?.["retry-after"]).toBe(String(retry));
      if (err instanceof errors.UnauthorizedError) expect(result.headers?.["www-authenticate"]).toBe('Bearer realm="weir"');
    });

    it("server actions: its code and message, never the generic failure", () => {
      const failure = toActionFailure(err);
      expect(failure.code).toBe(err.code);
      // The store being down is said in the console's own words: nothing was changed, try again.
      expect(failure.message).toEqual(err instanceof errors.StoreUnavailableError ? expect.stringMatching(/unreachable; nothing was changed/) : err.message);
      if (err.field) expect(failure.fieldErrors?.[err.field]).toEqual([err.message]);
    });

    it("console route handlers: the action's body with the HTTP status", async () => {
      const response = failureResponse(err);
      expect(response.status).toBe(err.status);
      expect(((await response.json()) as { code: string }).code).toBe(err.code);
    });

    it("CLI: its message and the exit code of its status", () => {
      const { message, exitCode } = describeError(err);
      expect(message).toContain(err instanceof errors.StoreUnavailableError ? "the database is unreachable" : err.message);
      expect(exitCode).toBe(cliExit(err.status));
    });
  });

  it("unknown errors stay generic on every transport", async () => {
    const err = new Error("password=hunter2 in a driver message");
    expect(errorToResult(err, "req-2")).toMatchObject({ status: 500, body: { error: { code: "internal" } } });
    expect(toActionFailure(err)).toMatchObject({ code: "internal" });
    expect(toActionFailure(err).message).not.toContain("hunter2");
    expect(failureResponse(err).status).toBe(500);
    expect(describeError(err).exitCode).toBe(EXIT.failed);
  });
});
