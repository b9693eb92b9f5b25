-- Commit order (spec §4, revision 3): a message is numbered within its
-- conversation while the writer holds the conversation's row lock, so two
-- writers of one conversation are numbered in the order they commit. An
-- identity column numbers at insert time instead, and a run could pass over
-- a message whose writer committed after a later-numbered one.
-- The lock is held until the writer commits; a run's claim (FOR UPDATE SKIP
-- LOCKED) passes over a conversation being written and takes it next time.
DROP TRIGGER messages_track_conversations ON messages;
DROP FUNCTION dreamd_track_conversations();

ALTER TABLE messages ALTER COLUMN seq DROP IDENTITY;
ALTER TABLE messages DROP CONSTRAINT messages_pkey;
ALTER TABLE messages ADD PRIMARY KEY (conversation_id, seq);

CREATE FUNCTION dreamd_number_message() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    owner TEXT;
BEGIN
    SELECT user_id INTO owner FROM conversations
    WHERE conversation_id = NEW.conversation_id FOR UPDATE;
    IF owner IS NOT NULL AND owner <> NEW.user_id THEN
        RAISE EXCEPTION 'conversation belongs to another user';
    END IF;
    -- Already stored: skipped without a number, as ON CONFLICT DO NOTHING would.
    IF EXISTS (SELECT 1 FROM messages
               WHERE conversation_id = NEW.conversation_id AND message_id = NEW.message_id) THEN
        RETURN NULL;
    END IF;
    INSERT INTO conversations (conversation_id, user_id, last_message_at, last_seq)
    VALUES (NEW.conversation_id, NEW.user_id, NEW.created_at, 1)
    ON CONFLICT (conversation_id) DO UPDATE SET
        last_seq = conversations.last_seq + 1,
        last_message_at = GREATEST(conversations.last_message_at, excluded.last_message_at)
    RETURNING last_seq INTO NEW.seq;
    RETURN NEW;
END $$;

CREATE TRIGGER messages_number BEFORE INSERT ON messages
FOR EACH ROW EXECUTE FUNCTION dreamd_number_message();
