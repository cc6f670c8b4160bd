-- AlterTable
ALTER TABLE "scans" ADD COLUMN     "rendered" BOOLEAN;
