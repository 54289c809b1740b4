// Generated from docs/asyncapi.json by `pnpm client:types` (openapi-typescript). Do not edit: a unit test fails when it drifts.
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** BroadcastClientMessage */
        BroadcastClientMessage: {
            token: string;
            /** @constant */
            type: "auth";
        } | {
            project: string;
            since?: number;
            /** @constant */
            type: "subscribe";
        } | {
            project: string;
            /** @constant */
            type: "unsubscribe";
        } | {
            /** @constant */
            type: "ping";
        };
        /** BroadcastServerMessage */
        BroadcastServerMessage: {
            /** @enum {string} */
            kind: "user" | "project";
            projects: {
                name: string;
                project_key: string;
            }[];
            /** @constant */
            type: "ready";
        } | {
            position: number;
            project: string;
            tiles: {
                changed_at: string | null;
                last_event_id: number | null;
                status: string;
                tile_id: number;
                tile_name: string;
                value: number | boolean | string | null;
                version: number;
            }[];
            /** @constant */
            type: "snapshot";
        } | {
            change: components["schemas"]["TileChange"];
            /** @constant */
            type: "change";
        } | {
            position: number;
            project: string;
            resumed: boolean;
            /** @constant */
            type: "subscribed";
        } | {
            /** @enum {string} */
            code: "project_not_found" | "already_subscribed" | "too_many_subscriptions" | "already_authenticated";
            message: string;
            project?: string;
            /** @constant */
            type: "error";
        } | {
            project: string;
            /** @constant */
            reason?: "project_deleted";
            /** @constant */
            type: "unsubscribed";
        } | {
            /** @constant */
            type: "pong";
        };
        /** TileChange */
        TileChange: {
            /** @enum {string} */
            cause: "event" | "time" | "rule";
            /** Format: date-time */
            changed_at: string;
            event_id: number | null;
            position: number;
            /** @enum {string} */
            previous_status: "unknown" | "ok" | "warning" | "critical" | "stale";
            previous_value: number | boolean | string | null;
            project_key: string;
            /** @enum {string} */
            status: "unknown" | "ok" | "warning" | "critical" | "stale";
            tile_id: number;
            tile_name: string;
            value: number | boolean | string | null;
            version: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
