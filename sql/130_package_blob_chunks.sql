-- Package archives in chunks, like materialization files (120): a publish
-- stores the uploaded zip 4 MiB at a time from its temporary file, and a node
-- that rebuilds a package folder reads it back one chunk at a time, so no
-- process ever holds a whole archive (up to MAX_UPLOAD_BYTES) in memory and
-- no single value is large. Archives stored before this migration are cut
-- into chunks here, in the migration's transaction.

CREATE TABLE package_blob_chunks (
  sha256 text NOT NULL REFERENCES package_blobs (sha256) ON DELETE CASCADE,
  seq int NOT NULL CHECK (seq >= 0),
  data bytea NOT NULL,
  PRIMARY KEY (sha256, seq)
);

ALTER TABLE package_blobs ADD COLUMN chunks int NOT NULL DEFAULT 1;

INSERT INTO package_blob_chunks (sha256, seq, data)
  SELECT b.sha256, g.seq, substring(b.bytes FROM g.seq * 4194304 + 1 FOR 4194304)
    FROM package_blobs b,
         generate_series(0, greatest(0, (length(b.bytes) - 1) / 4194304)) AS g (seq);

UPDATE package_blobs b SET chunks = (SELECT count(*) FROM package_blob_chunks c WHERE c.sha256 = b.sha256);

ALTER TABLE package_blobs ALTER COLUMN chunks DROP DEFAULT;
ALTER TABLE package_blobs DROP COLUMN bytes;
