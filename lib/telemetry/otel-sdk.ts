import { DiagConsoleLogger, DiagLogLevel, diag, trace } from "@opentelemetry/api";
import { traceDecisions } from "./spans";

type Env = Record<string, string | undefined>;

export interface TracingConfig {
  enabled: boolean;
  /** Where the spans go, without credentials: for the boot log. */
  endpoint: string;
  warnings: string[];
}

export interface Tracing {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

const listOf = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);

function endpointOf(env: Env): string {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim().replace(/\/$/, "");
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || (base ? `${base}/v1/traces` : "http://localhost:4318/v1/traces");
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(an invalid URL)";
  }
}

/**
 * Whether the standard OTEL_* variables ask for traces: an OTLP exporter named or an
 * OTLP endpoint set, unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 * Unlike a full SDK, nothing is exported by default: a node must be told where to.
 */
export function tracingConfigFromEnv(env: Env = process.env): TracingConfig {
  const endpoint = endpointOf(env);
  const warnings: string[] = [];
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { enabled: false, endpoint, warnings };
  const exporters = listOf(env.OTEL_TRACES_EXPORTER);
  const others = exporters.filter((name) => name !== "otlp" && name !== "none");
  if (others.length > 0) warnings.push(`OTEL_TRACES_EXPORTER=${others.join(",")} is not shipped with weir; it exports traces over OTLP/HTTP only`);
  const enabled = exporters.includes("none")
    ? false
    : exporters.includes("otlp") || (exporters.length === 0 && Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()));
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  if (enabled && protocol && protocol !== "http/json") {
    warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported; weir sends http/json (a collector's OTLP/HTTP port, 4318, takes it)`);
  }
  return { enabled, endpoint, warnings };
}

function logLevelOf(value: string | undefined): DiagLogLevel {
  const level = DiagLogLevel[(value ?? "").trim().toUpperCase() as keyof typeof DiagLogLevel];
  return typeof level === "number" ? level : DiagLogLevel.WARN;
}

/**
 * Starts the trace SDK when the environment asks for it and subscribes one span per
 * decision; undefined otherwise. The SDK is imported only then, so a node without
 * tracing never loads it. The exporter reads its endpoint, headers, timeout and
 * compression from the OTEL_EXPORTER_OTLP_* variables, the batch processor OTEL_BSP_*.
 */
export async function startTracing(): Promise<Tracing | undefined> {
  const env = process.env;
  const config = tracingConfigFromEnv(env);
  for (const warning of config.warnings) console.warn(`[weir] tracing: ${warning}`);
  if (!config.enabled) return undefined;

  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, { ATTR_SERVICE_NAME }] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/semantic-conventions"),
  ]);
  diag.setLogger(new DiagConsoleLogger(), logLevelOf(env.OTEL_LOG_LEVEL));
  // weir unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ [ATTR_SERVICE_NAME]: "weir" }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  const registered = trace.setGlobalTracerProvider(provider);
  const spans = traceDecisions(provider);
  console.log(`[weir] tracing: one span per decision, OTLP/HTTP to ${config.endpoint}`);

  return {
    forceFlush: () => {
      spans.drain();
      return provider.forceFlush();
    },
    shutdown: async () => {
      spans.stop();
      await provider.shutdown();
      if (registered) trace.disable();
    },
  };
}
