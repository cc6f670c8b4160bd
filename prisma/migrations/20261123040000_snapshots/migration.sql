-- CreateTable
CREATE TABLE "scan_snapshots" (
    "scan_id" UUID NOT NULL,
    "data" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "trimmed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "scan_snapshots_pkey" PRIMARY KEY ("scan_id")
);

-- CreateIndex
CREATE INDEX "scan_snapshots_expires_at_idx" ON "scan_snapshots"("expires_at");

-- AddForeignKey
ALTER TABLE "scan_snapshots" ADD CONSTRAINT "scan_snapshots_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
