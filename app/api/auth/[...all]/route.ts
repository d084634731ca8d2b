import { handleAuthRequest } from "@/lib/auth/http-handler";

export const dynamic = "force-dynamic";

export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
