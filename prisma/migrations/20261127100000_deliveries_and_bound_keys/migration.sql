-- An Idempotency-Key is bound to what its request created (the scans of POST /api/v1/scan and
-- /api/v1/scans/batch), in the transaction that stores them: a retry after an outage, a
-- time-out or a gateway restart answers those scans and never creates them again. Sealed
-- under the key, like the kept answer (an anonymous scan's access token is in it).
ALTER TABLE "idempotency_keys" ADD COLUMN "resource" BYTEA;

-- When a regression alert's next attempt is due: the delivery is queued again from its row
-- after the queue lost it (Redis restarted empty), at the attempt it had reached.
ALTER TABLE "audit_alerts" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3);

-- The deliveries still to make: the worker's sweep reads the finished scans whose callback is
-- pending (few at any time) to queue again those the queue lost.
CREATE INDEX "scans_callback_pending_idx" ON "scans" ("completed_at") WHERE "callback_state" = 'pending';
