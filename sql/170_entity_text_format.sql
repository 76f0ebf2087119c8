-- Which way of building an entity's text and lexical terms a row was indexed
-- with (src/retrieval/index/entity_text.ts ENTITY_TEXT_FORMAT). A start
-- re-indexes the versions indexed with another format (resumeIndexing), so a
-- change to how texts are built (stemming, labels and tags) reaches versions
-- indexed before it; rows written before this column count as format 0.
ALTER TABLE entity_embeddings ADD COLUMN text_format integer NOT NULL DEFAULT 0;
