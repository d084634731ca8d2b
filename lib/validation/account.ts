import { z } from "zod";

/** Console passwords: Better Auth is configured with the same bounds (lib/auth/better-auth.ts). */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/** One's own password change on the Account page; the current password is the re-authentication. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "enter your current password").max(PASSWORD_LENGTH.max),
    newPassword: z
      .string()
      .min(PASSWORD_LENGTH.min, `at least ${PASSWORD_LENGTH.min} characters`)
      .max(PASSWORD_LENGTH.max, `at most ${PASSWORD_LENGTH.max} characters`),
    confirmPassword: z.string().max(PASSWORD_LENGTH.max),
  })
  .refine((input) => input.confirmPassword === input.newPassword, { message: "does not match the new password", path: ["confirmPassword"] })
  .refine((input) => input.newPassword !== input.currentPassword, { message: "is the current password", path: ["newPassword"] });

export type ChangePasswordInput = z.input<typeof changePasswordSchema>;
