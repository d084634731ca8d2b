import { handleDemoSignIn } from "@/lib/auth/http-handler";

export const dynamic = "force-dynamic";

export const GET = handleDemoSignIn;
