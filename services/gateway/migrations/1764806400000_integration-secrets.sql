-- Up Migration
-- Secrets a tool signs its deliveries with (GitHub's webhook secret: the
-- X-Hub-Signature-256 HMAC), one per project and integration, sealed with
-- SECRETS_KEY like notification secrets. A change bumps the project's revision,
-- so every gateway drops its cached copy on the next request.
CREATE TABLE project_integration_secrets (
  project_key text NOT NULL REFERENCES projects (project_key) ON DELETE CASCADE,
  integration text NOT NULL CHECK (integration IN ('github')),
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_key, integration)
);

-- Down Migration
DROP TABLE project_integration_secrets;
