-- Up Migration
-- A user holds any number of tokens, each with an optional expiry, listed and
-- revoked one by one (issue 24). The token itself is shown once; only its
-- SHA-256 and first characters (to tell tokens apart) are stored.
CREATE TABLE user_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  label text NOT NULL DEFAULT '' CHECK (length(label) <= 200),
  token_hash bytea NOT NULL UNIQUE,
  token_prefix text NOT NULL,
  expires_at timestamptz,
  -- Written at most once a minute per token per gateway (a hint, not an audit log).
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_tokens_user_id_idx ON user_tokens (user_id, id);
COMMENT ON TABLE user_tokens IS 'Written by: gateway (admin API). token_hash is SHA-256 of the evu_ token. Read by broadcast through packages/control-plane.';

-- Tokens issued before this migration keep working, without expiry; their prefix was never kept.
INSERT INTO user_tokens (user_id, label, token_hash, token_prefix, created_at)
  SELECT id, 'default', token_hash, 'evu_', created_at FROM users;
-- Expand, then contract: users.token_hash is no longer read or written, only left nullable so that
-- an instance of the previous version (a rolling deploy) can still insert users; a later migration drops it.
ALTER TABLE users ALTER COLUMN token_hash DROP NOT NULL;
COMMENT ON COLUMN users.token_hash IS 'Unused since user_tokens (kept for a rolling deploy; to be dropped).';
COMMENT ON TABLE users IS 'Written by: gateway (admin API). Its tokens are in user_tokens.';

-- Down Migration
UPDATE users u SET token_hash = (SELECT t.token_hash FROM user_tokens t WHERE t.user_id = u.id ORDER BY t.id DESC LIMIT 1);
DELETE FROM users WHERE token_hash IS NULL;
ALTER TABLE users ALTER COLUMN token_hash SET NOT NULL;
DROP TABLE user_tokens;
COMMENT ON COLUMN users.token_hash IS NULL;
COMMENT ON TABLE users IS 'Written by: gateway (admin API). token_hash is SHA-256 of the evu_ token.';
