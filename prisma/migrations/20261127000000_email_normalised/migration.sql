-- Emails as the gateway's one normaliser stores them (packages/contract/src/email.ts): invisible
-- characters removed (the gateway refuses them in new input; a stored one can only be a
-- look-alike made before), surrounding spaces trimmed, Unicode NFKC, lower case, the domain's
-- trailing dot removed. The character class below is the normaliser's INVISIBLE set (control,
-- format and default-ignorable characters, line and paragraph separators) at Unicode 17.
--
-- Two users whose addresses become one: the account whose stored address already is the
-- normalised one keeps it, else the oldest (created_at, then id). Every other keeps its rows,
-- keys and sessions, and its address becomes `<normalised>#duplicate-<its id>`, an address no
-- sign-up or invitation can take again; the operator finds them with
-- `SELECT id, email FROM users WHERE email LIKE '%#duplicate-%'` and sets their address or
-- password with the accounts CLI. Nothing is deleted.
CREATE FUNCTION pg_temp.normalised_email(address text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(
    normalize(lower(normalize(btrim(regexp_replace(address, '[\u0001-\u001F\u007F-\u009F\u00AD\u034F\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2\u115F-\u1160\u17B4-\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB\U000110BD\U000110CD\U00013430-\U0001343F\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')), NFKC)), NFKC),
    '\.$', '')
$$;

WITH ranked AS (
  SELECT id, email, pg_temp.normalised_email(email) AS normalised,
         row_number() OVER (
           PARTITION BY pg_temp.normalised_email(email)
           ORDER BY (email = pg_temp.normalised_email(email)) DESC, created_at, id
         ) AS rank
  FROM "users"
)
UPDATE "users" AS u
SET email = CASE WHEN ranked.rank = 1 THEN ranked.normalised ELSE ranked.normalised || '#duplicate-' || u.id::text END
FROM ranked
WHERE u.id = ranked.id
  AND u.email IS DISTINCT FROM (CASE WHEN ranked.rank = 1 THEN ranked.normalised ELSE ranked.normalised || '#duplicate-' || u.id::text END);

UPDATE "invitations" SET email = pg_temp.normalised_email(email) WHERE email <> pg_temp.normalised_email(email);
