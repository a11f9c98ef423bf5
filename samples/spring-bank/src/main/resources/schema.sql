-- The part of the bank schema (samples/bank-oltp/src/main/resources/bank/bank-schema.sql) this
-- service uses, table for table and column for column as there; IF NOT EXISTS so that the
-- application may start again on its own database. Run at start (spring.sql.init.mode=always);
-- TiDB, MySQL 8 and MariaDB 10.6+ all accept it.

-- ISO 4217 currencies.
CREATE TABLE IF NOT EXISTS currency (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  iso_numeric SMALLINT NOT NULL,
  minor_units TINYINT NOT NULL,
  symbol VARCHAR(8) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_currency_code (code)
);

-- Customers (updated on login and address changes).
CREATE TABLE IF NOT EXISTS customer (
  id BIGINT NOT NULL AUTO_INCREMENT,
  customer_number VARCHAR(16) NOT NULL,
  first_name VARCHAR(64) NOT NULL,
  last_name VARCHAR(64) NOT NULL,
  birth_date DATE NOT NULL,
  email VARCHAR(128) NOT NULL,
  phone VARCHAR(32) NOT NULL,
  branch_id INT NOT NULL,
  customer_segment_id INT NOT NULL,
  risk_rating_id INT NOT NULL,
  occupation_id INT NOT NULL,
  language_id INT NOT NULL,
  country_id INT NOT NULL,
  kyc_document_type_id INT NOT NULL,
  status TINYINT NOT NULL,
  last_login_at DATETIME NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  KEY idx_customer_branch (branch_id)
);

-- Deposit accounts with their balances.
CREATE TABLE IF NOT EXISTS account (
  id BIGINT NOT NULL AUTO_INCREMENT,
  account_number VARCHAR(34) NOT NULL,
  customer_id BIGINT NOT NULL,
  product_id INT NOT NULL,
  branch_id INT NOT NULL,
  currency_id INT NOT NULL,
  balance DECIMAL(18,2) NOT NULL,
  available_balance DECIMAL(18,2) NOT NULL,
  overdraft_limit DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  opened_on DATE NOT NULL,
  closed_on DATE NULL,
  last_activity_at DATETIME NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  KEY idx_account_customer (customer_id)
);

-- Payments between accounts.
CREATE TABLE IF NOT EXISTS transfer (
  id BIGINT NOT NULL AUTO_INCREMENT,
  from_account_id BIGINT NOT NULL,
  to_account_id BIGINT NOT NULL,
  beneficiary_id BIGINT NULL,
  amount DECIMAL(18,2) NOT NULL,
  currency_id INT NOT NULL,
  fee_amount DECIMAL(18,2) NOT NULL,
  payment_scheme_id INT NOT NULL,
  channel_id INT NOT NULL,
  transaction_type_id INT NOT NULL,
  status TINYINT NOT NULL,
  reference VARCHAR(64) NOT NULL,
  value_date DATE NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_transfer_from (from_account_id, created_at),
  KEY idx_transfer_to (to_account_id, created_at)
);

-- Double-entry bookings.
CREATE TABLE IF NOT EXISTS ledger_entry (
  id BIGINT NOT NULL AUTO_INCREMENT,
  account_id BIGINT NOT NULL,
  transfer_id BIGINT NULL,
  transaction_type_id INT NOT NULL,
  gl_account_id INT NOT NULL,
  currency_id INT NOT NULL,
  amount DECIMAL(18,2) NOT NULL,
  balance_after DECIMAL(18,2) NOT NULL,
  debit_credit CHAR(1) NOT NULL,
  narrative VARCHAR(140) NOT NULL,
  value_date DATE NOT NULL,
  posted_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_ledger_account (account_id, posted_at),
  KEY idx_ledger_transfer (transfer_id)
);
