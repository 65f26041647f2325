-- sessions.token now holds SHA-256 (hex) of the cookie's token (server/auth/session-token-hash.ts): hash the tokens
-- of the sessions open at upgrade, so their cookies keep working.
UPDATE "sessions" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
