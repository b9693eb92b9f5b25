-- Embeddings for recall with a query (spec §10.25): per memory and embedding
-- model, the vector of the memory's text at `version`. A memory whose version
-- moved on is ranked lexically until the next run embeds it again; deleting
-- a memory deletes its embeddings. The vector is little-endian 32-bit floats.
CREATE TABLE memory_embeddings (
    memory_id TEXT NOT NULL,
    model TEXT NOT NULL,
    version BIGINT NOT NULL,
    vector BYTEA NOT NULL,
    PRIMARY KEY (memory_id, model)
);
