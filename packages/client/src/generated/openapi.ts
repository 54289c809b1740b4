// Generated from docs/openapi.json by `pnpm client:types` (openapi-typescript). Do not edit: a unit test fails when it drifts.
export interface paths {
    "/api/v1/admin/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every account */
        get: operations["getApiV1AdminAccounts"];
        put?: never;
        /** Create an account */
        post: operations["postApiV1AdminAccounts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set an account's ceilings for its projects' limits */
        put: operations["putApiV1AdminAccountsId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/accounts/{id}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An account's projects */
        get: operations["getApiV1AdminAccountsIdProjects"];
        put?: never;
        /** Create a project in an account; its API key is shown once */
        post: operations["postApiV1AdminAccountsIdProjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/accounts/{id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An account's users */
        get: operations["getApiV1AdminAccountsIdUsers"];
        put?: never;
        /** Create a user; its token is shown once */
        post: operations["postApiV1AdminAccountsIdUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/projects/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a project (its key stops working at once) */
        delete: operations["deleteApiV1AdminProjectsKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a user (its tokens stop working at once) */
        delete: operations["deleteApiV1AdminUsersId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace all of a user's tokens by a new one (the old ones stop working at once) */
        post: operations["postApiV1AdminUsersIdToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's tokens (label, prefix, dates; never the secret) */
        get: operations["getApiV1AdminUsersIdTokens"];
        put?: never;
        /** Issue one more token for a user, with an optional label and expiry; shown once */
        post: operations["postApiV1AdminUsersIdTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one token of a user (refused from the very next request; open WebSockets close with 4003) */
        delete: operations["deleteApiV1AdminUsersIdTokensTokenId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List stored events, newest first
         * @description Filters combine with AND. Any other query parameter (full-text `q`, `attributes.*`) is refused with 400, not ignored. `X-Total-Count-Exact: false` when `meta.total_count` is a lower bound (the count stops at a cap).
         */
        get: operations["getApiV1Events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stored event */
        get: operations["getApiV1EventsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the gateway answers, for a project key (spec 4.4) */
        get: operations["getApiV1Health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/alertmanager": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Alertmanager's webhook payload, as events */
        post: operations["postApiV1IntegrationsAlertmanager"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/cloudevents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** CloudEvents 1.0 (structured, batch or binary mode), as events */
        post: operations["postApiV1IntegrationsCloudevents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** GitHub webhooks, as events (authenticated by their X-Hub-Signature-256) */
        post: operations["postApiV1IntegrationsGithub"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/pagerduty/v2/enqueue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** PagerDuty Events API v2, as events (the routing_key in the body is the project's API key) */
        post: operations["postApiV1IntegrationsPagerdutyV2Enqueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's notification services (secrets masked) */
        get: operations["getApiV1Notifications"];
        put?: never;
        /** Create a notification service (a webhook without a secret gets one, shown once) */
        post: operations["postApiV1Notifications"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a notification service (a webhook keeps its secret unless given one) */
        put: operations["putApiV1NotificationsId"];
        post?: never;
        /** Delete a notification service */
        delete: operations["deleteApiV1NotificationsId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The service's deliveries, newest first */
        get: operations["getApiV1NotificationsIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test message through the service; answers with the outcome, waited for up to NOTIFY_SEND_TIMEOUT_MS (then `pending`) */
        post: operations["postApiV1NotificationsIdSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}/send_message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message through the service; answers with the outcome, waited for up to NOTIFY_SEND_TIMEOUT_MS (then `pending`) */
        post: operations["postApiV1NotificationsIdSendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The credential's projects (a project key: its own) */
        get: operations["getApiV1Projects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One project, and how far behind live its tiles are
         * @description `freshness` says how current the project's tiles are: 0 s (`live`) when the rule engine has applied every event the gateway acknowledged on the project's partition, else the seconds since `applied_through` (every event accepted before it is on the tiles); `behind` from 30 s, `far_behind` from 300 s (docs/api.md, Freshness).
         */
        get: operations["getApiV1ProjectsId"];
        /** Change name, settings, or (user token only) limits and quota */
        put: operations["putApiV1ProjectsId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's integration secrets (masked) */
        get: operations["getApiV1ProjectsIdIntegrations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/integrations/{integration}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set an integration's secret for the project (made up and shown once when none is given) */
        put: operations["putApiV1ProjectsIdIntegrationsIntegration"];
        post?: never;
        /** Remove an integration's secret */
        delete: operations["deleteApiV1ProjectsIdIntegrationsIntegration"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/refusals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests the limits refused (429, 402) in the last 5 minutes
         * @description A project whose tiles stand still may have its events refused: this says how many requests were, and which limit refused the latest (counted per minute; up to a second late).
         */
        get: operations["getApiV1ProjectsIdRefusals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/regenerate_key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the API key (user token; `{"confirm": true}`); the old key stops working at once */
        post: operations["postApiV1ProjectsIdRegenerateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rate_limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every limit with its usage, read without consuming anything
         * @description A project key gets its project (`data` is one report); a user token gets every project of its account ordered by key (`data` is a list), `?project_key=` narrows it to one.
         */
        get: operations["getApiV1RateLimits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tiles, by project and position */
        get: operations["getApiV1Tiles"];
        put?: never;
        /** Create a tile */
        post: operations["postApiV1Tiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tiles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tile */
        get: operations["getApiV1TilesId"];
        /** Change a tile */
        put: operations["putApiV1TilesId"];
        post?: never;
        /** Delete a tile */
        delete: operations["deleteApiV1TilesId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tiles/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tile's changes in a time window, newest first, as the rule engine recorded them */
        get: operations["getApiV1TilesIdHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tiles/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a tile's rule over its stored events
         * @description The state the tile's current rule gives over the project's events received since `since` (default: the tile's creation; at most 24 h ago), each applied in the order the rule engine met them, by the engine's own evaluator, compared with the live state. At most 1,000,000 events read and `PREVIEW_TIME_LIMIT_MS` (10 s) spent reading: beyond, 400 `validation_error` on `since`. With `dry_run: false` the rule engine applies it: in one transaction ordered with its own writes for the tile, over every event it had applied (once the store has stored them), the tile's state and its history since `since` become the replay's, and a closing change (cause `rule`) carries the live state's move to dashboards and notifications; 503 when the engine did not take it within 30 s (nothing changed).
         */
        post: operations["postApiV1TilesIdReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tiles/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tile's state as the rule engine committed it (`unknown`, version 0, before its first change); a grouped tile's groups, worst first */
        get: operations["getApiV1TilesIdState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tiles/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a rule over stored events
         * @description The timeline of states a tile with this rule would have had since `since` (default an hour ago, at most 24 h), and how many events matched, by the rule engine's own evaluator. At most 1,000,000 events read and `PREVIEW_TIME_LIMIT_MS` (10 s) spent reading: beyond, 400 `validation_error` on `since`.
         */
        post: operations["postApiV1TilesPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling user's tokens (label, prefix, dates; never the secret) */
        get: operations["getApiV1Tokens"];
        put?: never;
        /**
         * Issue one more token for the calling user, with an optional label and expiry; the secret is shown once (at most 50 per user)
         * @description A token cannot make one that outlives it. When the calling token has an expiry, the new token expires no later: `expires_at` omitted means the calling token's own expiry, and a later `expires_at` is 400 `validation_error`. A token without an expiry may issue tokens with any expiry or none. The admin API (`POST /api/v1/admin/users/{id}/tokens`) is not bound by this.
         */
        post: operations["postApiV1Tokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the calling user's tokens (refused from the very next request; open WebSockets close with 4003) */
        delete: operations["deleteApiV1TokensId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one event or a batch of up to 100
         * @description A batch (`{"events": [...]}`) is validated all or nothing. 201 carries the rule engine's outcome (`tiles_affected`); 202 means stored, the outcome not awaited or not in time. Every answer after the limit check carries the rate-limit headers.
         */
        post: operations["postApiV1Webhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe (no credential) */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one event
         * @description Answered 201 only after Kafka acknowledged the event. Order of checks: credential, project, rate limits (429), quota (402), validation (400).
         */
        post: operations["postIngest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (no credential) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe (no credential): the producer connected and Redis reachable; Postgres reported, not required */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Account */
        Account: {
            /** Format: date-time */
            created_at?: string;
            hourly_request_limit: number | null;
            id: number;
            max_burst_limit?: number | null;
            max_hourly_request_limit?: number | null;
            /** @description The most a user token may set a project's quota to; null: the environment's ceiling */
            max_monthly_quota?: number | null;
            name: string;
        };
        AdminCreateAccount: {
            hourly_request_limit?: number;
            name: string;
            retention_days?: number;
        };
        AdminCreateProject: {
            burst_limit?: number;
            hourly_request_limit?: number;
            monthly_quota?: number;
            name: string;
            project_key: string;
        };
        AdminCreateUser: {
            /** Format: email */
            email: string;
        };
        AdminCreateUserToken: {
            /**
             * Format: date-time
             * @description When the token stops working (in the future); absent: never. Through POST /api/v1/tokens, at most the calling token's own expiry, and absent means that expiry
             */
            expires_at?: string;
            label?: string;
        };
        AdminUpdateAccountCeilings: {
            max_burst_limit?: number | null;
            max_hourly_request_limit?: number | null;
            max_monthly_quota?: number | null;
        };
        /** AlertmanagerWebhook */
        AlertmanagerWebhook: {
            alerts: {
                annotations?: {
                    [key: string]: string;
                };
                endsAt?: string;
                fingerprint?: string;
                generatorURL?: string;
                labels?: {
                    [key: string]: string;
                };
                startsAt?: string;
                /** @enum {string} */
                status: "firing" | "resolved";
            }[];
            commonAnnotations?: {
                [key: string]: string;
            };
            commonLabels?: {
                [key: string]: string;
            };
            externalURL?: string;
            groupKey?: string;
            groupLabels?: {
                [key: string]: string;
            };
            receiver?: string;
            /** @enum {string} */
            status?: "firing" | "resolved";
            truncatedAlerts?: number;
            version?: string;
        };
        /** CloudEvent */
        CloudEvent: {
            /** @description Extension: the envelope correlation_id */
            correlationid?: string;
            data?: unknown;
            data_base64?: string;
            datacontenttype?: string;
            dataschema?: string;
            id: string;
            /** @description Extension: the envelope channel */
            pbchannel?: string;
            /** @description Extension: the envelope severity */
            pbseverity?: string;
            /** @description Extension: the envelope type (default infrastructure) */
            pbtype?: string;
            source: string;
            /** @enum {string} */
            specversion: "1.0";
            subject?: string;
            time?: string;
            type: string;
        };
        /** CloudEventBatch */
        CloudEventBatch: components["schemas"]["CloudEvent"][];
        CreateNotification: {
            /** @description Per type: webhook `{url, secret?}`, slack `{webhook_url}`, email `{to: [...]}`; at most 8192 bytes serialised as JSON (400 validation_error beyond) */
            config: Record<string, never>;
            name: string;
            /** @enum {string} */
            type: "webhook" | "slack" | "email";
        };
        CreateTile: {
            kind: string;
            name: string;
            notification_service_ids?: number[];
            position?: number;
            project_key?: string;
            rule: components["schemas"]["TileRule"];
            /** @description Free-form JSON the dashboard reads (e.g. `unit`): at most 50 fields, 32 levels and 16384 bytes serialised as JSON (400 validation_error beyond) */
            settings?: Record<string, never>;
        };
        /** Delivery */
        Delivery: {
            attempts: number;
            /** Format: date-time */
            created_at: string;
            delivered_at: string | null;
            event_id: number | null;
            id: string;
            last_error: string | null;
            response_status: number | null;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            tile_id: number | null;
        };
        /** ErrorEnvelope */
        ErrorEnvelope: {
            error: {
                /** @enum {string} */
                code: "bad_request" | "validation_error" | "authentication_required" | "invalid_api_key" | "invalid_signature" | "invalid_admin_token" | "quota_exceeded" | "forbidden" | "user_token_required" | "api_key_required" | "not_found" | "project_not_found" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "resource_limit_reached" | "rate_limit_exceeded" | "internal_error" | "service_unavailable";
                details?: components["schemas"]["ValidationDetails"];
                message: string;
            };
        };
        /** EventEnvelope */
        EventEnvelope: {
            attributes: Record<string, never>;
            channel?: string;
            correlation_id?: string;
            labels?: string[];
            name: string;
            project_key: string;
            /** @enum {string} */
            severity?: "info" | "warn" | "error" | "critical";
            source?: string;
            /** Format: iso-date-time */
            timestamp: string;
            /** @enum {string} */
            type: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
        };
        /** GitHubPong */
        GitHubPong: {
            message: string;
            /** @enum {unknown} */
            status: "ok";
        };
        /** GitHubWebhook */
        GitHubWebhook: Record<string, never>;
        /** IngestAccepted */
        IngestAccepted: {
            /** @description The integer id; `evt_<id>` names the same event */
            event_id: number;
            message: string;
            quota_limit: number;
            quota_used: number;
            /** @description Events left in the burst window */
            rate_limit_remaining: number;
            /** @enum {unknown} */
            status: "accepted";
        };
        /** IngestError */
        IngestError: {
            /** @enum {string} */
            code: "bad_request" | "validation_error" | "authentication_required" | "invalid_api_key" | "invalid_signature" | "invalid_admin_token" | "quota_exceeded" | "forbidden" | "user_token_required" | "api_key_required" | "not_found" | "project_not_found" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "resource_limit_reached" | "rate_limit_exceeded" | "internal_error" | "service_unavailable";
            /** @description 429: what the window has used */
            current_usage?: number;
            details?: components["schemas"]["ValidationDetails"];
            message: string;
            /** @description 402: the monthly quota */
            quota_limit?: number;
            /**
             * Format: date-time
             * @description 402: when the quota starts again (UTC month start)
             */
            quota_reset_at?: string;
            /** @description 402: events counted this month */
            quota_used?: number;
            /** @description 429: the limit of the window that refused */
            rate_limit?: number;
            /** @description 429: seconds until the window ends (also the Retry-After header) */
            retry_after?: number;
            /** @enum {unknown} */
            status: "error";
        };
        /** IntegrationIgnored */
        IntegrationIgnored: {
            message: string;
            /** @enum {unknown} */
            status: "ignored";
        };
        /** IntegrationSecret */
        IntegrationSecret: {
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            integration: "github";
            /** @description `••••` once set; the secret itself only in the PUT answer that generated it (then `secret_shown_once` is true) */
            secret: string;
            /** @enum {unknown} */
            secret_shown_once?: true;
            /** Format: date-time */
            updated_at: string;
        };
        /** ListMeta */
        ListMeta: {
            current_page: number;
            per_page: number;
            total_count: number;
            total_pages: number;
        };
        /** NotificationService */
        NotificationService: {
            /** @description The type's config; secret fields masked (a webhook secret is shown once, when generated) */
            config: Record<string, never>;
            /** Format: date-time */
            created_at: string;
            id: number;
            name: string;
            /** @enum {string} */
            type: "webhook" | "slack" | "email";
            /** Format: date-time */
            updated_at: string;
        };
        /** PagerDutyAccepted */
        PagerDutyAccepted: {
            /** @description The dedup_key sent, or the one made up for a trigger without it */
            dedup_key: string;
            message: string;
            /** @enum {unknown} */
            status: "success";
        };
        /** PagerDutyEvent */
        PagerDutyEvent: {
            client?: string;
            client_url?: string;
            dedup_key?: string;
            /** @enum {string} */
            event_action: "trigger" | "acknowledge" | "resolve";
            images?: Record<string, never>[];
            links?: Record<string, never>[];
            payload?: {
                class?: string;
                component?: string;
                custom_details?: unknown;
                group?: string;
                /** @enum {string} */
                severity?: "critical" | "error" | "warning" | "info";
                source?: string;
                summary?: string;
                timestamp?: string;
            };
            /** @description The project's API key (evk_...) */
            routing_key?: string;
        };
        PreviewTile: {
            project_key?: string;
            rule: components["schemas"]["TileRule"];
            /**
             * Format: date-time
             * @description Where the preview starts; default: an hour ago; at most 24 h ago
             */
            since?: string;
        };
        /** Project */
        Project: {
            account_id: number;
            api_key_prefix: string;
            burst_limit: number | null;
            /** Format: date-time */
            created_at: string;
            hourly_request_limit: number | null;
            /** @description The project key (projects are named by their key) */
            id: string;
            limits: {
                burst_per_minute: number;
                monthly_quota: number;
                project_hourly_requests: number;
                retention_days: number;
            };
            monthly_quota: number;
            name: string;
            project_key: string;
            retention_days: number | null;
            settings: Record<string, never>;
            /** Format: date-time */
            updated_at: string;
        };
        /** ProjectDetail */
        ProjectDetail: {
            account_id: number;
            api_key_prefix: string;
            burst_limit: number | null;
            /** Format: date-time */
            created_at: string;
            freshness: components["schemas"]["ProjectFreshness"];
            hourly_request_limit: number | null;
            /** @description The project key (projects are named by their key) */
            id: string;
            limits: {
                burst_per_minute: number;
                monthly_quota: number;
                project_hourly_requests: number;
                retention_days: number;
            };
            monthly_quota: number;
            name: string;
            project_key: string;
            retention_days: number | null;
            settings: Record<string, never>;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * ProjectFreshness
         * @description How far behind live the project's tiles are: `live` under 30 s, `behind` from 30 s, `far_behind` from 300 s, `unknown` when Kafka's end offsets cannot be read or the rule engine has not reported yet
         */
        ProjectFreshness: {
            /** @description Every event accepted before this time is on the tiles (to about a second) */
            applied_through: string | null;
            /** @description 0 when the rule engine has applied every event the gateway acknowledged on the project's partition; else seconds since `applied_through` */
            behind_seconds: number | null;
            /** Format: date-time */
            measured_at: string;
            /** @description Events acknowledged on the project's partition (shared with other projects) not yet applied */
            pending_events: number | null;
            /** @enum {string} */
            status: "live" | "behind" | "far_behind" | "unknown";
        };
        /** ProjectWithKey */
        ProjectWithKey: {
            account_id: number;
            api_key: string;
            api_key_prefix: string;
            burst_limit: number | null;
            /** Format: date-time */
            created_at: string;
            hourly_request_limit: number | null;
            /** @description The project key (projects are named by their key) */
            id: string;
            limits: {
                burst_per_minute: number;
                monthly_quota: number;
                project_hourly_requests: number;
                retention_days: number;
            };
            monthly_quota: number;
            name: string;
            project_key: string;
            retention_days: number | null;
            settings: Record<string, never>;
            /** Format: date-time */
            updated_at: string;
        };
        PutIntegrationSecret: {
            secret?: string;
        };
        /** RateLimitsReport */
        RateLimitsReport: {
            limits: {
                account_hourly_requests: {
                    /** @enum {string} */
                    counts: "events" | "requests";
                    limit: number;
                    remaining: number;
                    /** @description Unix epoch seconds when the window ends, as in X-RateLimit-Reset */
                    reset: number;
                    /** Format: date-time */
                    reset_at: string;
                    used: number;
                };
                burst_per_minute: {
                    /** @enum {string} */
                    counts: "events" | "requests";
                    limit: number;
                    remaining: number;
                    /** @description Unix epoch seconds when the window ends, as in X-RateLimit-Reset */
                    reset: number;
                    /** Format: date-time */
                    reset_at: string;
                    used: number;
                };
                global_hourly_requests?: {
                    /** @enum {string} */
                    counts: "events" | "requests";
                    limit: number;
                    remaining: number;
                    /** @description Unix epoch seconds when the window ends, as in X-RateLimit-Reset */
                    reset: number;
                    /** Format: date-time */
                    reset_at: string;
                    used: number;
                };
                monthly_quota: {
                    /** @enum {string} */
                    counts: "events" | "requests";
                    limit: number;
                    remaining: number;
                    /** @description Unix epoch seconds when the window ends, as in X-RateLimit-Reset */
                    reset: number;
                    /** Format: date-time */
                    reset_at: string;
                    used: number;
                };
                project_hourly_requests: {
                    /** @enum {string} */
                    counts: "events" | "requests";
                    limit: number;
                    remaining: number;
                    /** @description Unix epoch seconds when the window ends, as in X-RateLimit-Reset */
                    reset: number;
                    /** Format: date-time */
                    reset_at: string;
                    used: number;
                };
            };
            project_key: string;
        };
        RegenerateKey: {
            confirm?: boolean;
        };
        ReplayTile: {
            /**
             * @description true (default): compare only; false: replace the tile's state and its history since `since` with the replayed ones
             * @default true
             */
            dry_run: boolean;
            /**
             * Format: date-time
             * @description Where the replay starts from an unknown state; default: the tile's creation, at most 24 h ago
             */
            since?: string;
        };
        SendMessage: {
            body: string;
            subject: string;
        };
        /** SendOutcome */
        SendOutcome: {
            attempts: number;
            delivery_id: string;
            response_status: number | null;
            /** @enum {string} */
            status: "delivered" | "failed" | "pending";
        };
        /** StoredEvent */
        StoredEvent: {
            attributes: Record<string, never>;
            channel: string | null;
            correlation_id: string | null;
            event_id: number;
            event_ref: string;
            labels: string[];
            name: string;
            project_key: string;
            /** Format: date-time */
            received_at: string;
            severity: ("info" | "warn" | "error" | "critical") | null;
            source: string | null;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            type: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
        };
        /** Tile */
        Tile: {
            /** Format: date-time */
            created_at: string;
            id: number;
            kind: string;
            name: string;
            notification_service_ids: number[];
            position: number;
            project_key: string;
            rule: components["schemas"]["TileRule"];
            settings: Record<string, never>;
            /** Format: date-time */
            updated_at: string;
        };
        /** TileHistoryEntry */
        TileHistoryEntry: {
            /** @enum {string} */
            cause: "event" | "time" | "rule";
            /** Format: date-time */
            changed_at: string;
            /** @description The event that made the change; null when time or a rule change made it */
            event_id: number | null;
            /** @description The group the change is of (`?group=`); absent for the tile's own changes */
            group?: string;
            /** @description The history row: grows per project in the order of the changes (the tile-changes topic and the WebSocket carry the same number) */
            position: number;
            /** @enum {string} */
            previous_status: "unknown" | "ok" | "warning" | "critical" | "stale";
            /** @enum {string} */
            status: "unknown" | "ok" | "warning" | "critical" | "stale";
            tile_id: number;
            /** @description The tile's `settings.unit`, else the `unit` attribute of the event that made the change, else null */
            unit: string | null;
            value: number | boolean | string | null;
            version: number;
        };
        /** TilePreview */
        TilePreview: {
            /** @description Changes the tile would have made; `timeline` holds the newest 5,000 of them */
            changes_total: number;
            /** @description Events the whole filter matched, each applied to the tile */
            events_matched: number;
            /** @description Events read: the project's events since `since` of the filter's types and names (when it names them) */
            events_scanned: number;
            /** @description A grouped tile only: how many groups are in each status */
            group_counts?: {
                critical: number;
                ok: number;
                stale: number;
                unknown: number;
                warning: number;
            };
            /** @description A grouped tile only: its groups, worst status first, then by key: a page of them (`page`, `per_page`: default and at most 100) in the state, the first 100 in a preview */
            groups?: {
                /** @description The group's last change; null before any */
                changed_at: string | null;
                /** @description The value at `group_by`; `(none)` for events without one */
                key: string;
                /** @enum {string} */
                status: "unknown" | "ok" | "warning" | "critical" | "stale";
                value: number | boolean | string | null;
                version: number;
            }[];
            /** @description A grouped tile only: events refused because their group would have been past the limit (or its key over 256 characters) */
            groups_refused?: number;
            project_key: string;
            /** Format: date-time */
            since: string;
            /** @description The state the tile would have now */
            state: {
                changed_at: string | null;
                /** @enum {string} */
                status: "unknown" | "ok" | "warning" | "critical" | "stale";
                value: number | boolean | string | null;
                version: number;
            };
            /** @description The changes, oldest first (as tile history records them, without position) */
            timeline: {
                /** @enum {string} */
                cause: "event" | "time" | "rule";
                /** Format: date-time */
                changed_at: string;
                event_id: number | null;
                /** @description A grouped rule: the group the change is of; absent for the tile's own changes */
                group?: string;
                /** @enum {string} */
                previous_status: "unknown" | "ok" | "warning" | "critical" | "stale";
                /** @enum {string} */
                status: "unknown" | "ok" | "warning" | "critical" | "stale";
                value: number | boolean | string | null;
                version: number;
            }[];
            /**
             * Format: date-time
             * @description When the preview ran: time-driven changes are taken up to here
             */
            until: string;
        };
        /** TileReplay */
        TileReplay: {
            /** @description Changes the replay made (the history since `since` it stands for) */
            changes_total?: number;
            /** @description true: nothing was changed; false: the replayed state and history replaced the live ones */
            dry_run: boolean;
            /** @description Whether the replayed status and value are the live ones (the live state as of `until`) */
            equal: boolean;
            /** @description Events the tile's filter matched, each applied in the order the rule engine met them */
            events_replayed: number;
            /** @description The live state (GET /tiles/{id}/state) when the replay ran; after an apply, the state it replaced */
            live: {
                /** Format: date-time */
                changed_at: string;
                /** @description A grouped tile only: its rule's `group_by`. Its `status` is its worst group's, its `value` how many groups have it */
                group_by?: string;
                /** @description A grouped tile only: how many groups are in each status */
                group_counts?: {
                    critical: number;
                    ok: number;
                    stale: number;
                    unknown: number;
                    warning: number;
                };
                /** @description A grouped tile only: its groups, worst status first, then by key: a page of them (`page`, `per_page`: default and at most 100) in the state, the first 100 in a preview */
                groups?: {
                    /** @description The group's last change; null before any */
                    changed_at: string | null;
                    /** @description The value at `group_by`; `(none)` for events without one */
                    key: string;
                    /** @enum {string} */
                    status: "unknown" | "ok" | "warning" | "critical" | "stale";
                    value: number | boolean | string | null;
                    version: number;
                }[];
                /** @description A grouped tile only: the page of `groups` */
                groups_meta?: {
                    current_page: number;
                    per_page: number;
                    total_count: number;
                    total_pages: number;
                };
                /** @description A grouped tile only: events refused because their group would have been past the limit (or its key over 256 characters) */
                groups_refused?: number;
                last_event_id: number | null;
                project_key: string;
                /** @enum {string} */
                status: "unknown" | "ok" | "warning" | "critical" | "stale";
                tile_id: number;
                value: number | boolean | string | null;
                version: number;
            };
            /**
             * Format: date-time
             * @description Where the replay started from an unknown state: events received from here on were applied
             */
            since: string;
            /** @description The replayed state, as GET /tiles/{id}/state shows a state */
            state: {
                /** Format: date-time */
                changed_at: string;
                /** @description A grouped tile only: its rule's `group_by`. Its `status` is its worst group's, its `value` how many groups have it */
                group_by?: string;
                /** @description A grouped tile only: how many groups are in each status */
                group_counts?: {
                    critical: number;
                    ok: number;
                    stale: number;
                    unknown: number;
                    warning: number;
                };
                /** @description A grouped tile only: its groups, worst status first, then by key: a page of them (`page`, `per_page`: default and at most 100) in the state, the first 100 in a preview */
                groups?: {
                    /** @description The group's last change; null before any */
                    changed_at: string | null;
                    /** @description The value at `group_by`; `(none)` for events without one */
                    key: string;
                    /** @enum {string} */
                    status: "unknown" | "ok" | "warning" | "critical" | "stale";
                    value: number | boolean | string | null;
                    version: number;
                }[];
                /** @description A grouped tile only: the page of `groups` */
                groups_meta?: {
                    current_page: number;
                    per_page: number;
                    total_count: number;
                    total_pages: number;
                };
                /** @description A grouped tile only: events refused because their group would have been past the limit (or its key over 256 characters) */
                groups_refused?: number;
                last_event_id: number | null;
                project_key: string;
                /** @enum {string} */
                status: "unknown" | "ok" | "warning" | "critical" | "stale";
                tile_id: number;
                value: number | boolean | string | null;
                version: number;
            };
            tile_id: number;
            /**
             * Format: date-time
             * @description When the replay ran: time-driven changes are taken up to here
             */
            until: string;
        };
        /** TileRule */
        TileRule: {
            evaluation: {
                /** @enum {string} */
                kind: "status_map" | "threshold" | "window" | "up_down";
            } | {
                /** @enum {unknown} */
                kind: "status_map";
                map: {
                    [key: string]: "ok" | "warning" | "critical";
                };
            } | ({
                attribute: string;
                critical?: number;
                /** @enum {string} */
                direction?: "above" | "below";
                /** @enum {unknown} */
                kind: "threshold";
                warning?: number;
            } | {
                warning: number;
            } | {
                critical: number;
            }) | ({
                /** @enum {string} */
                aggregate: "count" | "sum" | "avg" | "min" | "max";
                attribute?: string;
                critical?: number;
                /** @enum {string} */
                direction?: "above" | "below";
                /** @enum {unknown} */
                kind: "window";
                warning?: number;
                window: string;
            } | {
                warning: number;
            } | {
                critical: number;
            }) | {
                attribute: string;
                /** @enum {unknown} */
                kind: "up_down";
            };
            filter?: {
                attributes?: {
                    [key: string]: string | number | boolean | null | {
                        contains?: string | number | boolean;
                        eq?: string | number | boolean | null;
                        exists?: boolean;
                        gt?: number;
                        gte?: number;
                        in?: (string | number | boolean | null)[];
                        lt?: number;
                        lte?: number;
                        ne?: string | number | boolean | null;
                    };
                };
                channel?: string | string[];
                labels?: string[];
                name?: string | string[];
                severity?: ("info" | "warn" | "error" | "critical") | ("info" | "warn" | "error" | "critical")[];
                source?: string | string[];
                type?: ("deployment" | "uptime" | "error" | "metric" | "infrastructure") | ("deployment" | "uptime" | "error" | "metric" | "infrastructure")[];
            };
            group_by?: string;
            group_retire_after?: string;
            pending?: string;
            recovery?: string;
            stale_after?: string;
        };
        /** TileState */
        TileState: {
            /** Format: date-time */
            changed_at: string;
            /** @description A grouped tile only: its rule's `group_by`. Its `status` is its worst group's, its `value` how many groups have it */
            group_by?: string;
            /** @description A grouped tile only: how many groups are in each status */
            group_counts?: {
                critical: number;
                ok: number;
                stale: number;
                unknown: number;
                warning: number;
            };
            /** @description A grouped tile only: its groups, worst status first, then by key: a page of them (`page`, `per_page`: default and at most 100) in the state, the first 100 in a preview */
            groups?: {
                /** @description The group's last change; null before any */
                changed_at: string | null;
                /** @description The value at `group_by`; `(none)` for events without one */
                key: string;
                /** @enum {string} */
                status: "unknown" | "ok" | "warning" | "critical" | "stale";
                value: number | boolean | string | null;
                version: number;
            }[];
            /** @description A grouped tile only: the page of `groups` */
            groups_meta?: {
                current_page: number;
                per_page: number;
                total_count: number;
                total_pages: number;
            };
            /** @description A grouped tile only: events refused because their group would have been past the limit (or its key over 256 characters) */
            groups_refused?: number;
            last_event_id: number | null;
            project_key: string;
            /** @enum {string} */
            status: "unknown" | "ok" | "warning" | "critical" | "stale";
            tile_id: number;
            value: number | boolean | string | null;
            version: number;
        };
        UpdateNotification: {
            /** @description Per type: webhook `{url, secret?}`, slack `{webhook_url}`, email `{to: [...]}`; at most 8192 bytes serialised as JSON (400 validation_error beyond) */
            config?: Record<string, never>;
            name?: string;
            /** @enum {string} */
            type?: "webhook" | "slack" | "email";
        };
        UpdateProject: {
            burst_limit?: number | null;
            hourly_request_limit?: number | null;
            monthly_quota?: number;
            name?: string;
            retention_days?: number | null;
            /** @description Free-form JSON: at most 100 fields, 32 levels and 16384 bytes serialised as JSON (400 validation_error beyond) */
            settings?: {
                /** @description The most groups a grouped tile (rule `group_by`) of this project holds; default 1000 */
                max_groups_per_tile?: number;
            };
        };
        UpdateTile: {
            kind?: string;
            name?: string;
            notification_service_ids?: number[];
            position?: number;
            rule?: components["schemas"]["TileRule"];
            /** @description Free-form JSON the dashboard reads (e.g. `unit`): at most 50 fields, 32 levels and 16384 bytes serialised as JSON (400 validation_error beyond) */
            settings?: Record<string, never>;
        };
        /** User */
        User: {
            account_id: number;
            /** Format: date-time */
            created_at?: string;
            email: string;
            id: number;
        };
        /** UserToken */
        UserToken: {
            /** Format: date-time */
            created_at: string;
            /** @description When the token stops working (401); null: never */
            expires_at: string | null;
            id: number;
            /** @description What the token is for (empty when none was given) */
            label: string;
            /** @description When a request last authenticated with it (updated at most about once a minute); null: never used */
            last_used_at: string | null;
            /** @description The first characters of the token, to tell tokens apart; the token itself is never shown again */
            prefix: string;
            user_id: number;
        };
        /** UserTokenWithSecret */
        UserTokenWithSecret: {
            /** Format: date-time */
            created_at: string;
            /** @description When the token stops working (401); null: never */
            expires_at: string | null;
            id: number;
            /** @description What the token is for (empty when none was given) */
            label: string;
            /** @description When a request last authenticated with it (updated at most about once a minute); null: never used */
            last_used_at: string | null;
            /** @description The first characters of the token, to tell tokens apart; the token itself is never shown again */
            prefix: string;
            token: string;
            user_id: number;
        };
        /** UserWithToken */
        UserWithToken: {
            account_id: number;
            email: string;
            id: number;
            token: string;
        };
        /** ValidationDetails */
        ValidationDetails: {
            [key: string]: string[];
        };
        /** WebhookAccepted */
        WebhookAccepted: {
            event_id: string;
            /** Format: date-time */
            processed_at: string;
            /** @enum {unknown} */
            status: "accepted";
        };
        /** WebhookBatch */
        WebhookBatch: {
            events: components["schemas"]["WebhookEvent"][];
            project_key?: string;
        };
        /** WebhookBatchAccepted */
        WebhookBatchAccepted: {
            count: number;
            events: {
                event_id: string;
            }[];
            /** Format: date-time */
            processed_at: string;
            /** @enum {unknown} */
            status: "accepted";
        };
        /** WebhookBatchResult */
        WebhookBatchResult: {
            count: number;
            events: {
                event_id: string;
                tiles_affected: number;
            }[];
            /** Format: date-time */
            processed_at: string;
            /** @enum {unknown} */
            status: "success";
            tiles_affected: number;
        };
        /** WebhookEvent */
        WebhookEvent: {
            attributes: Record<string, never>;
            channel?: string;
            correlation_id?: string;
            labels?: string[];
            name: string;
            project_key?: string;
            /** @enum {string} */
            severity?: "info" | "warn" | "error" | "critical";
            source?: string;
            /** Format: iso-date-time */
            timestamp: string;
            /** @enum {string} */
            type: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
        };
        /** WebhookResult */
        WebhookResult: {
            event_id: string;
            /** Format: date-time */
            processed_at: string;
            /** @enum {unknown} */
            status: "success";
            tiles_affected: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getApiV1AdminAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accounts, by id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Account"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1AdminAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateAccount"];
            };
        };
        responses: {
            /** @description The account */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putApiV1AdminAccountsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminUpdateAccountCeilings"];
            };
        };
        responses: {
            /** @description The account with its ceilings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1AdminAccountsIdProjects: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Projects */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1AdminAccountsIdProjects: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateProject"];
            };
        };
        responses: {
            /** @description The project with its API key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectWithKey"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1AdminAccountsIdUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1AdminAccountsIdUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateUser"];
            };
        };
        responses: {
            /** @description The user with its token */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserWithToken"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1AdminProjectsKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project key */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1AdminUsersId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1AdminUsersIdToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user with the new token */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserWithToken"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1AdminUsersIdTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UserToken"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1AdminUsersIdTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateUserToken"];
            };
        };
        responses: {
            /** @description The token with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserTokenWithSecret"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1AdminUsersIdTokensTokenId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id */
                id: number;
                /** @description The token's id (from the list) */
                token_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1Events: {
        parameters: {
            query?: {
                channel?: string;
                correlation_id?: string;
                /** @description Repeatable: every label given must be on the event */
                label?: string[];
                name?: string;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page (at most 100) */
                per_page?: number;
                /** @description One project of the account (a user token); default: every readable project */
                project_key?: string;
                severity?: "info" | "warn" | "error" | "critical";
                /** @description Inclusive lower bound of the event's own timestamp (a date, or a date-time with an offset) */
                since?: string;
                source?: string;
                type?: "deployment" | "uptime" | "error" | "metric" | "infrastructure";
                /** @description Exclusive upper bound */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    /** @description Whether meta.total_count is exact or a lower bound */
                    "x-total-count-exact"?: "true" | "false";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StoredEvent"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1EventsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event id: `123` or `evt_123` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StoredEvent"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1Health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: string;
                        /** @enum {unknown} */
                        status: "ok";
                        /** Format: date-time */
                        timestamp: string;
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1IntegrationsAlertmanager: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertmanagerWebhook"];
            };
        };
        responses: {
            /** @description Accepted (`accepted`, with the events made), or nothing to record (`ignored`) */
            202: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookBatchAccepted"] | components["schemas"]["IntegrationIgnored"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `quota_exceeded`: the monthly quota is spent */
            402: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body */
            422: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1IntegrationsCloudevents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/cloudevents-batch+json": components["schemas"]["CloudEventBatch"];
                "application/cloudevents+json": components["schemas"]["CloudEvent"];
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Accepted (`accepted`, with the events made), or nothing to record (`ignored`) */
            202: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookBatchAccepted"] | components["schemas"]["IntegrationIgnored"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `quota_exceeded`: the monthly quota is spent */
            402: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body */
            422: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1IntegrationsGithub: {
        parameters: {
            query: {
                project_key: string;
            };
            header: {
                "x-github-delivery"?: string;
                "x-github-event": string;
                "x-hub-signature-256": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GitHubWebhook"];
            };
        };
        responses: {
            /** @description A ping answered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitHubPong"];
                };
            };
            /** @description Accepted (`accepted`, with the events made), or nothing to record (`ignored`) */
            202: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookBatchAccepted"] | components["schemas"]["IntegrationIgnored"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `quota_exceeded`: the monthly quota is spent */
            402: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body */
            422: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1IntegrationsPagerdutyV2Enqueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PagerDutyEvent"];
            };
        };
        responses: {
            /** @description PagerDuty's success answer, or nothing to record (`ignored`) */
            202: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PagerDutyAccepted"] | components["schemas"]["IntegrationIgnored"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `quota_exceeded`: the monthly quota is spent */
            402: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body */
            422: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1Notifications: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page (at most 100) */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of services */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NotificationService"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1Notifications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotification"];
            };
        };
        responses: {
            /** @description The service */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NotificationService"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putApiV1NotificationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotification"];
            };
        };
        responses: {
            /** @description The service as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NotificationService"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1NotificationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1NotificationsIdDeliveries: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page (at most 100) */
                per_page?: number;
            };
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Delivery"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1NotificationsIdSend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What became of the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SendOutcome"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1NotificationsIdSendMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendMessage"];
            };
        };
        responses: {
            /** @description What became of the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SendOutcome"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1Projects: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page (at most 100) */
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of projects */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1ProjectsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project key */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project with its `freshness` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ProjectDetail"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putApiV1ProjectsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project key */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProject"];
            };
        };
        responses: {
            /** @description The project as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1ProjectsIdIntegrations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every integration secret the project has */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["IntegrationSecret"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putApiV1ProjectsIdIntegrationsIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                integration: "github";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutIntegrationSecret"];
            };
        };
        responses: {
            /** @description The secret as set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["IntegrationSecret"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1ProjectsIdIntegrationsIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                integration: "github";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1ProjectsIdRefusals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project key */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The count, and the latest refusal with the limit that made it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Requests refused since then (429 and 402) */
                            count: number;
                            /** @description The latest refusal since then; null when none */
                            last: {
                                /** Format: date-time */
                                at: string;
                                /** @description That limit */
                                limit: number;
                                /** @description The limit in words, for people */
                                message: string;
                                /**
                                 * @description The limit that refused it: a rate window (minute: the burst limit, in events) or the monthly quota
                                 * @enum {string}
                                 */
                                reason: "minute" | "project_hour" | "account_hour" | "global_hour" | "monthly_quota";
                                /** @enum {integer} */
                                status: 429 | 402;
                            } | null;
                            project_key: string;
                            /** @description Of which refused by the monthly quota (402) */
                            quota_exceeded: number;
                            /** @description Of which refused by a rate limit (429) */
                            rate_limited: number;
                            /**
                             * Format: date-time
                             * @description Start of the oldest minute counted: the current minute and the 4 before it
                             */
                            since: string;
                        };
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1ProjectsIdRegenerateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project key */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegenerateKey"];
            };
        };
        responses: {
            /** @description The project with its new key, shown once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ProjectWithKey"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1RateLimits: {
        parameters: {
            query?: {
                project_key?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits in force and their usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RateLimitsReport"] | components["schemas"]["RateLimitsReport"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1Tiles: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page (at most 100) */
                per_page?: number;
                /** @description One project (a user token); default: every readable project */
                project_key?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of tiles */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tile"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1Tiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTile"];
            };
        };
        responses: {
            /** @description The tile */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tile"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1TilesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tile"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putApiV1TilesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTile"];
            };
        };
        responses: {
            /** @description The tile as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tile"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1TilesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1TilesIdHistory: {
        parameters: {
            query?: {
                /** @description A grouped tile: this group's changes (its key, as in `groups` of the state); default: the tile's own */
                group?: string;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page (at most 100) */
                per_page?: number;
                /** @description Inclusive lower bound of `changed_at`; default: an hour before `until`; at most 24 h before it */
                since?: string;
                /** @description Exclusive upper bound of `changed_at`; default: now */
                until?: string;
            };
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of changes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TileHistoryEntry"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1TilesIdReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayTile"];
            };
        };
        responses: {
            /** @description The replay */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TileReplay"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1TilesIdState: {
        parameters: {
            query?: {
                /** @description A grouped tile: the page of `groups`, from 1 */
                page?: number;
                /** @description A grouped tile: groups per page (at most 100) */
                per_page?: number;
            };
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TileState"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1TilesPreview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PreviewTile"];
            };
        };
        responses: {
            /** @description The preview */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TilePreview"];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiV1Tokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UserToken"][];
                    };
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1Tokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateUserToken"];
            };
        };
        responses: {
            /** @description The token with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserTokenWithSecret"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteApiV1TokensId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The numeric id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1Webhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key with the same body within IDEMPOTENCY_TTL_SECONDS gets the stored answer; nothing is stored twice */
                "idempotency-key"?: string;
                /** @description The project; must be the API key's */
                "x-project-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"] | components["schemas"]["WebhookBatch"];
            };
        };
        responses: {
            /** @description Stored, with the rule engine's outcome */
            201: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResult"] | components["schemas"]["WebhookBatchResult"];
                };
            };
            /** @description Stored; the rule engine's outcome was not awaited or not in time */
            202: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAccepted"] | components["schemas"]["WebhookBatchAccepted"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `quota_exceeded`: the monthly quota is spent */
            402: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body */
            422: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    /** @description Events allowed per UTC minute */
                    "x-burst-limit"?: number;
                    /** @description Events left in the current minute */
                    "x-burst-remaining"?: number;
                    /** @description Unix epoch seconds when the minute ends */
                    "x-burst-reset"?: number;
                    /** @description The project's hourly request limit */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current UTC hour */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix epoch seconds when the hour ends */
                    "x-ratelimit-reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks?: {
                            [key: string]: boolean;
                        };
                        status?: string;
                    };
                };
            };
        };
    };
    postIngest: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key with the same body within IDEMPOTENCY_TTL_SECONDS gets the stored answer; nothing is stored twice */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Stored (acknowledged by Kafka) */
            201: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            /** @description `validation_error` (with `details`: field → messages) or `bad_request` (not JSON, an empty body, a URL that is not valid UTF-8) */
            400: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `authentication_required` (no credential) or `invalid_api_key` / `invalid_admin_token` */
            401: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `quota_exceeded`: the monthly quota is spent */
            402: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `forbidden`, `user_token_required` or `api_key_required`: a credential of the wrong kind or project */
            403: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `not_found` / `project_not_found`: no such resource, or not one this credential may see */
            404: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `idempotency_conflict` (a request with this Idempotency-Key is still in progress; retry after Retry-After) or `resource_limit_reached` (a cap on tiles, notification services or a user's tokens) */
            409: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `unsupported_media_type`: the body must be application/json */
            415: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `idempotency_key_reused`: this Idempotency-Key was used with a different body */
            422: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `rate_limit_exceeded`: a rate limit window is full, or too many failed authentications from this address (retry after Retry-After) */
            429: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
            /** @description `service_unavailable`: a backing service (Kafka, Redis, Postgres) is unavailable; retry after Retry-After */
            503: {
                headers: {
                    /** @description This is the stored answer of an earlier request with the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    /** @description Seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestError"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks?: {
                            [key: string]: boolean;
                        };
                        status?: string;
                    };
                };
            };
            /** @description Not ready: the error envelope naming the failing checks */
            503: {
                headers: {
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
