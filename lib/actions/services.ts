"use server";
/*
 * Every export of this file is a public endpoint that anyone can call with any
 * arguments: each one checks the role itself and the verb parses the input.
 */
import { revalidatePath } from "next/cache";
import { ZodError } from "zod";
import { requireConsoleActor } from "@/lib/auth/console-actor";
import { authorize } from "@/lib/auth/authorize";
import { runAction, type ActionResult } from "@/lib/console/action-result";
import { consoleDb } from "@/lib/console/store";
import { saveService } from "@/lib/services/save-service";
import {
  previewServiceSettings,
  type ServiceSettingsDraft,
  type ServiceSettingsPreview,
} from "@/lib/views/service-settings";

export interface ServiceSettingsSaved {
  hashVersion: number;
  newHashVersion: boolean;
}

export async function previewServiceSettingsAction(draft: ServiceSettingsDraft): Promise<ActionResult<ServiceSettingsPreview>> {
  return runAction(() =>
    withListFieldErrors(draft, async () => {
      const actor = await requireConsoleActor("admin");
      authorize(actor, "admin", { kind: "services", id: String(draft?.serviceId) });
      return previewServiceSettings(await consoleDb(), { serviceId: draft?.serviceId, settings: draft?.settings });
    }),
  );
}

/** Saves what was previewed: `previewedAt` is the settings' `updatedAt` the preview was made against. */
export async function saveServiceSettingsAction(draft: ServiceSettingsDraft & { previewedAt: string }): Promise<ActionResult<ServiceSettingsSaved>> {
  return runAction(() =>
    withListFieldErrors(draft, async () => {
      const actor = await requireConsoleActor("admin");
      const id = String(draft?.serviceId);
      // The console edits registered services only, and only as they were previewed.
      const ifUnchanged = { updatedAt: String(draft?.previewedAt) };
      const { service, previousHashVersion } = await saveService({ db: await consoleDb(), actor, id, input: draft?.settings, ifUnchanged });
      revalidatePath(`/services/${service.id}`, "layout");
      return { hashVersion: service.hashVersion, newHashVersion: service.hashVersion !== previousHashVersion };
    }),
  );
}

/**
 * A bad pointer's issue has the path ["ignoredPaths", 3]; the form has one field per list, so
 * the issue is moved to the list and names the pointer (the line) it is about.
 */
async function withListFieldErrors<T>(draft: ServiceSettingsDraft, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    throw new ZodError(
      err.issues.map((issue) => {
        const [list, index] = issue.path;
        if ((list !== "ignoredPaths" && list !== "includedPaths") || typeof index !== "number") return issue;
        const pointer = draft?.settings?.[list]?.[index];
        return { ...issue, path: [list], message: `${JSON.stringify(String(pointer).slice(0, 80))} ${issue.message}` };
      }),
    );
  }
}
