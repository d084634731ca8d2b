// The settings cache lives in the check's own room (the engine reads it on the hot path);
// re-exported here for the services area and older imports.
export * from "@/lib/dedup/last-seen/service-config";
