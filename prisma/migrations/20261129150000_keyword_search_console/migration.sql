-- Search Console's clicks and impressions of a keyword, from its last import
ALTER TABLE "keywords" ADD COLUMN "clicks" INTEGER;
ALTER TABLE "keywords" ADD COLUMN "impressions" INTEGER;
