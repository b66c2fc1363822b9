-- Default prices (demo values, editable in the table): USD, 24-hour trial 0.99, then 49.99 a month, 30 geolocations.
INSERT INTO "price_setups" ("currency", "trial_price_minor", "monthly_price_minor", "geolocations_per_period", "trial_hours", "is_default")
VALUES ('USD', 99, 4999, 30, 24, true);
