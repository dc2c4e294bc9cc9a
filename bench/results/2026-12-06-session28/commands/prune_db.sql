-- Keeps one kernel source's rows of a carried tune database, so the exported CSVs fit a device
-- call's 64 MiB: :env is that source's environment id (sqlite3 -cmd ".param set :env N").
DELETE FROM measurements WHERE env != :env;
DELETE FROM winners WHERE env != :env;
DELETE FROM candidates WHERE name NOT IN (SELECT DISTINCT config FROM measurements WHERE config != '');
VACUUM;
