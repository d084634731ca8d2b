"use client";
import { RouteError } from "@/components/ui/route-error";

export default RouteError;
