-- Ids made in SQL, of the shape src/security/ids.ts newId makes: the prefix, '_', then 24 of
-- [0-9a-z], each from one byte of a hash of 244 random bits (two random UUIDs).
CREATE FUNCTION new_id(prefix TEXT) RETURNS TEXT LANGUAGE sql VOLATILE AS $$
  SELECT prefix || '_' || string_agg(substr('0123456789abcdefghijklmnopqrstuvwxyz', get_byte(random.bytes, i) % 36 + 1, 1), '' ORDER BY i)
  FROM (SELECT sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())) AS bytes) AS random, generate_series(0, 23) AS i
$$;
