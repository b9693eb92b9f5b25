-- A user's conversations without a scan of all of them: stage two reads
-- what a user wrote lately (spec §2: no text the model writes may carry a
-- piece of a finding in it), and erasing a user finds their conversations.
CREATE INDEX conversations_user ON conversations (user_id, last_message_at);
