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
        } | {
            filters?: {
                channel?: string;
                label?: string[];
                name?: string;
                /** @enum {string} */
                severity?: "info" | "warn" | "error" | "critical";
                /** @enum {string} */
                type?: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
            };
            project: string;
            /** @constant */
            type: "tail";
            /** @constant */
            v: 1;
        } | {
            project: string;
            /** @constant */
            type: "untail";
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
                kind?: string;
                last_event_id: number | null;
                /** @description the tile rule as stored (https://pulseboard.dev/schemas/tile-rule.json) */
                rule?: Record<string, never>;
                settings?: Record<string, never>;
                status: string;
                tile_id: number;
                tile_name: string;
                tile_position?: number;
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
            code: "project_not_found" | "already_subscribed" | "too_many_subscriptions" | "already_authenticated" | "already_tailing" | "not_tailing";
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
        } | {
            project: string;
            revision: number;
            tile: {
                kind: string;
                position: number;
                /** @description the tile rule as stored (https://pulseboard.dev/schemas/tile-rule.json) */
                rule: Record<string, never>;
                settings: Record<string, never>;
                tile_id: number;
                tile_name: string;
            };
            /** @constant */
            type: "tile_added";
            /** @constant */
            v: 1;
        } | {
            changed: ("name" | "kind" | "position" | "rule" | "settings")[];
            project: string;
            revision: number;
            tile: {
                kind: string;
                position: number;
                /** @description the tile rule as stored (https://pulseboard.dev/schemas/tile-rule.json) */
                rule: Record<string, never>;
                settings: Record<string, never>;
                tile_id: number;
                tile_name: string;
            };
            /** @constant */
            type: "tile_updated";
            /** @constant */
            v: 1;
        } | {
            project: string;
            revision: number;
            tile_id: number;
            /** @constant */
            type: "tile_removed";
            /** @constant */
            v: 1;
        } | {
            project: string;
            /** Format: date-time */
            since: string;
            state: {
                changed_at: string | null;
                last_event_id: number | null;
                status: string;
                value: number | boolean | string | null;
                version: number;
            };
            tile_id: number;
            /** @constant */
            type: "tile_replaced";
            /** Format: date-time */
            until: string;
            /** @constant */
            v: 1;
        } | {
            filters: {
                channel?: string;
                label?: string[];
                name?: string;
                /** @enum {string} */
                severity?: "info" | "warn" | "error" | "critical";
                /** @enum {string} */
                type?: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
            };
            max_per_second: number;
            project: string;
            /** @constant */
            type: "tailing";
            /** @constant */
            v: 1;
        } | {
            event: components["schemas"]["IngestedEvent"];
            project: string;
            /** @constant */
            type: "event";
            /** @constant */
            v: 1;
        } | {
            count: number;
            project: string;
            /** @enum {string} */
            reason: "rate" | "slow_client";
            /** @constant */
            type: "skipped";
            /** @constant */
            v: 1;
        } | {
            project: string;
            /** @constant */
            reason?: "project_deleted";
            /** @constant */
            type: "untailed";
            /** @constant */
            v: 1;
        };
        /** IngestedEvent */
        IngestedEvent: {
            account_id: number;
            attributes: Record<string, never>;
            channel?: string;
            correlation_id?: string;
            id: number;
            labels?: string[];
            name: string;
            project_key: string;
            /** Format: date-time */
            received_at: string;
            /** @enum {string} */
            severity?: "info" | "warn" | "error" | "critical";
            source?: string;
            /** Format: iso-date-time */
            timestamp: string;
            /** @enum {string} */
            type: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
        };
        /** TileChange */
        TileChange: {
            /** @enum {string} */
            cause: "event" | "time" | "rule";
            /** Format: date-time */
            changed_at: string;
            event_id: number | null;
            group?: string;
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
