-- Demo data, so the endpoints have something to answer: 3 currencies, customers 1-100, and two
-- accounts each (customer c owns accounts 2c-1 and 2c), every account in EUR with 10,000.00. Fixed ids and
-- INSERT IGNORE: a restart adds nothing and keeps the balances transfers have moved. The numbers
-- come from a cross join of digits (no recursive CTE: the same text runs on TiDB, MySQL, MariaDB).

INSERT IGNORE INTO currency (id, code, name, iso_numeric, minor_units, symbol, status, valid_from, valid_to, created_at, updated_at, version) VALUES
  (1, 'EUR', 'Euro', 978, 2, 'EUR', 1, '2000-01-01', NULL, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 0),
  (2, 'USD', 'US Dollar', 840, 2, 'USD', 1, '2000-01-01', NULL, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 0),
  (3, 'GBP', 'Pound Sterling', 826, 2, 'GBP', 1, '2000-01-01', NULL, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 0);

INSERT IGNORE INTO customer (id, customer_number, first_name, last_name, birth_date, email, phone, branch_id, customer_segment_id, risk_rating_id, occupation_id, language_id, country_id, kyc_document_type_id, status, last_login_at, created_at, updated_at, version)
SELECT n + 1, CONCAT('C', LPAD(n + 1, 8, '0')), 'Demo', CONCAT('Customer ', n + 1), '1980-01-01',
       CONCAT('customer', n + 1, '@example.com'), '+00 000 000', 1 + n % 10, 1, 1, 1, 1, 1, 1, 1, NULL,
       '2024-01-01 00:00:00', '2024-01-01 00:00:00', 0
FROM (SELECT t.d * 10 + u.d AS n
      FROM (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) u
      CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) t) c;

INSERT IGNORE INTO account (id, account_number, customer_id, product_id, branch_id, currency_id, balance, available_balance, overdraft_limit, status, opened_on, closed_on, last_activity_at, created_at, updated_at, version)
SELECT 2 * c.n + k.k, CONCAT('DE00SPRINGBANK', LPAD(2 * c.n + k.k, 10, '0')), c.n + 1, 1, 1 + c.n % 10,
       1, 10000.00, 10000.00, 0.00, 1, '2024-01-01', NULL, NULL,
       '2024-01-01 00:00:00', '2024-01-01 00:00:00', 0
FROM (SELECT t.d * 10 + u.d AS n
      FROM (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) u
      CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) t) c
CROSS JOIN (SELECT 1 AS k UNION ALL SELECT 2) k;
