#!/bin/sh
# Runs once, when the PostgreSQL container initialises an empty data directory (docker-entrypoint-initdb.d; compose.yaml
# mounts it). POSTGRES_USER, the container's superuser, is the owner: it owns the database and its schema and applies
# the migrations (the compose service `migrate`). The app and the worker connect as `chamspy_app`, a role that owns
# nothing and gets its table privileges from the migrations step (server/db/prepare.ts): it cannot alter, truncate or
# drop a table, nor switch off the append-only triggers of the consent records and the operator audit
# (docs/deploy.md, "The database roles").
set -eu
psql -v ON_ERROR_STOP=1 -v app_password="$APP_DB_PASSWORD" --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE ROLE chamspy_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'app_password';
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
REVOKE ALL ON DATABASE :"DBNAME" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"DBNAME" TO chamspy_app;
SQL
