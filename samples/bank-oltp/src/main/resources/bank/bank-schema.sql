-- The bank schema of the bank-oltp sample: 48 reference tables (read, practically never written)
-- and 12 written tables. Portable DDL: TiDB, MySQL 8 and MariaDB 10.6+ all accept it.
--
-- Format, read by io.wireadvisor.samples.bank.BankSchema (keep it):
--   one "-- table: <reference|written> rows=<n>[*sf]" line before each CREATE TABLE,
--   one column per line, indexes after the columns, each statement ending with ");".
-- A column named <table>_id (optionally with a prefix such as from_ / base_) refers to <table>.id.
-- Geographic regions used for reporting and branch grouping.
-- table: reference rows=12
CREATE TABLE region (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  description VARCHAR(128) NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_region_code (code)
);

-- ISO 4217 currencies.
-- table: reference rows=40
CREATE TABLE currency (
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

-- ISO 3166 countries.
-- table: reference rows=120
CREATE TABLE country (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  iso_alpha3 CHAR(3) NOT NULL,
  region_id INT NOT NULL,
  currency_id INT NOT NULL,
  dialing_prefix VARCHAR(8) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_country_code (code)
);

-- Cities with branches or ATMs.
-- table: reference rows=400
CREATE TABLE city (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  country_id INT NOT NULL,
  postal_prefix VARCHAR(10) NOT NULL,
  time_zone_id INT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_city_code (code)
);

-- IANA time zones.
-- table: reference rows=40
CREATE TABLE time_zone (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  utc_offset_minutes SMALLINT NOT NULL,
  dst_observed TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_time_zone_code (code)
);

-- Languages for customer communication.
-- table: reference rows=30
CREATE TABLE language (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  iso_639 CHAR(2) NOT NULL,
  rtl TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_language_code (code)
);

-- Bank branches.
-- table: reference rows=300
CREATE TABLE branch (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  city_id INT NOT NULL,
  region_id INT NOT NULL,
  cost_center_id INT NOT NULL,
  address_line VARCHAR(128) NOT NULL,
  phone VARCHAR(32) NOT NULL,
  opened_on DATE NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_branch_code (code)
);

-- Accounting cost centres.
-- table: reference rows=200
CREATE TABLE cost_center (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  gl_account_id INT NOT NULL,
  budget_amount DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_cost_center_code (code)
);

-- General-ledger categories (asset, liability, ...).
-- table: reference rows=20
CREATE TABLE gl_category (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  normal_balance CHAR(1) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_gl_category_code (code)
);

-- Chart of accounts.
-- table: reference rows=500
CREATE TABLE gl_account (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  gl_category_id INT NOT NULL,
  currency_id INT NOT NULL,
  reconcilable TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_gl_account_code (code)
);

-- Correspondent and counterparty banks.
-- table: reference rows=300
CREATE TABLE bank (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  bic VARCHAR(11) NOT NULL,
  country_id INT NOT NULL,
  payment_scheme_id INT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_bank_code (code)
);

-- SEPA, SWIFT, domestic instant, ...
-- table: reference rows=12
CREATE TABLE payment_scheme (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  settlement_days TINYINT NOT NULL,
  max_amount DECIMAL(18,2) NOT NULL,
  currency_id INT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_payment_scheme_code (code)
);

-- Cut-off times per payment scheme and channel.
-- table: reference rows=80
CREATE TABLE cutoff_time (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  payment_scheme_id INT NOT NULL,
  channel_id INT NOT NULL,
  cutoff_minute SMALLINT NOT NULL,
  holiday_calendar_id INT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_cutoff_time_code (code)
);

-- Business-day calendars.
-- table: reference rows=40
CREATE TABLE holiday_calendar (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  country_id INT NOT NULL,
  weekend_mask TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_holiday_calendar_code (code)
);

-- Non-business days per calendar.
-- table: reference rows=800
CREATE TABLE holiday (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  holiday_calendar_id INT NOT NULL,
  holiday_date DATE NOT NULL,
  half_day TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_holiday_code (code)
);

-- Web, mobile, ATM, branch, call centre, API, ...
-- table: reference rows=8
CREATE TABLE channel (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  authentication_level TINYINT NOT NULL,
  online TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_channel_code (code)
);

-- Booking transaction codes.
-- table: reference rows=60
CREATE TABLE transaction_type (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  gl_account_id INT NOT NULL,
  debit_credit CHAR(1) NOT NULL,
  fee_type_id INT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_transaction_type_code (code)
);

-- Current account, savings, term deposit, ...
-- table: reference rows=12
CREATE TABLE product_type (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  gl_category_id INT NOT NULL,
  interest_bearing TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_product_type_code (code)
);

-- Account products on sale.
-- table: reference rows=120
CREATE TABLE product (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  product_type_id INT NOT NULL,
  currency_id INT NOT NULL,
  interest_rate_table_id INT NOT NULL,
  fee_schedule_id INT NOT NULL,
  limit_profile_id INT NOT NULL,
  min_balance DECIMAL(18,2) NOT NULL,
  overdraft_allowed TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_product_code (code)
);

-- Interest rate tables referenced by products.
-- table: reference rows=60
CREATE TABLE interest_rate_table (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  currency_id INT NOT NULL,
  interest_accrual_method_id INT NOT NULL,
  base_rate DECIMAL(9,6) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_interest_rate_table_code (code)
);

-- Tiers of an interest rate table.
-- table: reference rows=600
CREATE TABLE interest_rate_tier (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  interest_rate_table_id INT NOT NULL,
  min_amount DECIMAL(18,2) NOT NULL,
  max_amount DECIMAL(18,2) NOT NULL,
  rate DECIMAL(9,6) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_interest_rate_tier_code (code)
);

-- ACT/360, ACT/365, 30/360, ...
-- table: reference rows=8
CREATE TABLE interest_accrual_method (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  days_in_year SMALLINT NOT NULL,
  compounding TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_interest_accrual_method_code (code)
);

-- Fee schedules referenced by products.
-- table: reference rows=80
CREATE TABLE fee_schedule (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  currency_id INT NOT NULL,
  waiver_balance DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_fee_schedule_code (code)
);

-- Kinds of fee.
-- table: reference rows=40
CREATE TABLE fee_type (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  gl_account_id INT NOT NULL,
  taxable TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_fee_type_code (code)
);

-- Fee amounts per schedule, type and channel.
-- table: reference rows=900
CREATE TABLE fee_item (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  fee_schedule_id INT NOT NULL,
  fee_type_id INT NOT NULL,
  channel_id INT NOT NULL,
  currency_id INT NOT NULL,
  fixed_amount DECIMAL(18,2) NOT NULL,
  percent_rate DECIMAL(9,6) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_fee_item_code (code)
);

-- Withholding and transaction taxes.
-- table: reference rows=150
CREATE TABLE tax_rule (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  country_id INT NOT NULL,
  fee_type_id INT NOT NULL,
  rate DECIMAL(9,6) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_tax_rule_code (code)
);

-- Market data sources for FX rates.
-- table: reference rows=6
CREATE TABLE rate_source (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  priority TINYINT NOT NULL,
  delay_seconds SMALLINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_rate_source_code (code)
);

-- Daily FX rates (the reference snapshot the application quotes from).
-- table: reference rows=1200
CREATE TABLE exchange_rate (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  base_currency_id INT NOT NULL,
  quote_currency_id INT NOT NULL,
  rate_source_id INT NOT NULL,
  rate_date DATE NOT NULL,
  bid_rate DECIMAL(18,8) NOT NULL,
  ask_rate DECIMAL(18,8) NOT NULL,
  mid_rate DECIMAL(18,8) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_exchange_rate_code (code)
);

-- FX margins per currency and customer segment.
-- table: reference rows=400
CREATE TABLE fx_margin (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  currency_id INT NOT NULL,
  customer_segment_id INT NOT NULL,
  channel_id INT NOT NULL,
  margin_bps SMALLINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_fx_margin_code (code)
);

-- Retail, premier, private, SME, ...
-- table: reference rows=10
CREATE TABLE customer_segment (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  fee_schedule_id INT NOT NULL,
  limit_profile_id INT NOT NULL,
  priority TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_customer_segment_code (code)
);

-- Customer risk ratings.
-- table: reference rows=10
CREATE TABLE risk_rating (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  score_min SMALLINT NOT NULL,
  score_max SMALLINT NOT NULL,
  review_months TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_risk_rating_code (code)
);

-- Occupation codes for KYC.
-- table: reference rows=200
CREATE TABLE occupation (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  risk_rating_id INT NOT NULL,
  sector VARCHAR(32) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_occupation_code (code)
);

-- Identity document kinds.
-- table: reference rows=25
CREATE TABLE kyc_document_type (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  country_id INT NOT NULL,
  expires TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_kyc_document_type_code (code)
);

-- Daily and monthly limits.
-- table: reference rows=40
CREATE TABLE limit_profile (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  currency_id INT NOT NULL,
  daily_limit DECIMAL(18,2) NOT NULL,
  monthly_limit DECIMAL(18,2) NOT NULL,
  per_tx_limit DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_limit_profile_code (code)
);

-- Limits per profile, channel and transaction type.
-- table: reference rows=500
CREATE TABLE limit_rule (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  limit_profile_id INT NOT NULL,
  channel_id INT NOT NULL,
  transaction_type_id INT NOT NULL,
  max_amount DECIMAL(18,2) NOT NULL,
  max_count SMALLINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_limit_rule_code (code)
);

-- Visa, Mastercard, ...
-- table: reference rows=6
CREATE TABLE card_network (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  bin_prefix VARCHAR(8) NOT NULL,
  settlement_currency_id INT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_card_network_code (code)
);

-- Debit and credit card products.
-- table: reference rows=40
CREATE TABLE card_product (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  card_network_id INT NOT NULL,
  currency_id INT NOT NULL,
  fee_schedule_id INT NOT NULL,
  limit_profile_id INT NOT NULL,
  credit_limit DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_card_product_code (code)
);

-- ISO 18245 merchant category codes.
-- table: reference rows=600
CREATE TABLE merchant_category (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  mcc SMALLINT NOT NULL,
  risk_rating_id INT NOT NULL,
  cash_like TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_merchant_category_code (code)
);

-- Card fraud rules.
-- table: reference rows=300
CREATE TABLE fraud_rule (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  merchant_category_id INT NOT NULL,
  country_id INT NOT NULL,
  channel_id INT NOT NULL,
  threshold_amount DECIMAL(18,2) NOT NULL,
  score SMALLINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_fraud_rule_code (code)
);

-- Countries under sanctions and the action to take.
-- table: reference rows=30
CREATE TABLE sanctioned_country (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  country_id INT NOT NULL,
  action_level TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_sanctioned_country_code (code)
);

-- Loan products.
-- table: reference rows=30
CREATE TABLE loan_product (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  currency_id INT NOT NULL,
  interest_rate_table_id INT NOT NULL,
  repayment_schedule_type_id INT NOT NULL,
  collateral_type_id INT NOT NULL,
  max_term_months SMALLINT NOT NULL,
  max_amount DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_loan_product_code (code)
);

-- Annuity, linear, bullet, ...
-- table: reference rows=6
CREATE TABLE repayment_schedule_type (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  periods_per_year TINYINT NOT NULL,
  grace_periods TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_repayment_schedule_type_code (code)
);

-- Collateral kinds.
-- table: reference rows=15
CREATE TABLE collateral_type (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  haircut_percent DECIMAL(9,6) NOT NULL,
  revaluation_months TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_collateral_type_code (code)
);

-- Status codes per entity.
-- table: reference rows=120
CREATE TABLE status_code (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  entity VARCHAR(32) NOT NULL,
  final_state TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_status_code_code (code)
);

-- Error codes shown to users.
-- table: reference rows=300
CREATE TABLE error_code (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  severity TINYINT NOT NULL,
  language_id INT NOT NULL,
  message VARCHAR(255) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_error_code_code (code)
);

-- Notification templates per channel and language.
-- table: reference rows=200
CREATE TABLE notification_template (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  channel_id INT NOT NULL,
  language_id INT NOT NULL,
  subject VARCHAR(128) NOT NULL,
  body VARCHAR(1024) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_notification_template_code (code)
);

-- Statement and contract templates.
-- table: reference rows=80
CREATE TABLE document_template (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  language_id INT NOT NULL,
  product_type_id INT NOT NULL,
  template_uri VARCHAR(255) NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_document_template_code (code)
);

-- ATMs and their branches.
-- table: reference rows=900
CREATE TABLE atm (
  id INT NOT NULL,
  code VARCHAR(16) NOT NULL,
  name VARCHAR(64) NOT NULL,
  branch_id INT NOT NULL,
  city_id INT NOT NULL,
  cash_capacity DECIMAL(18,2) NOT NULL,
  deposit_capable TINYINT NOT NULL,
  status TINYINT NOT NULL,
  valid_from DATE NOT NULL,
  valid_to DATE NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_atm_code (code)
);

-- Customers (updated on login and address changes).
-- table: written rows=5000*sf
CREATE TABLE customer (
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
-- table: written rows=10000*sf
CREATE TABLE account (
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

-- Saved payees of a customer.
-- table: written rows=8000*sf
CREATE TABLE beneficiary (
  id BIGINT NOT NULL AUTO_INCREMENT,
  customer_id BIGINT NOT NULL,
  bank_id INT NOT NULL,
  country_id INT NOT NULL,
  currency_id INT NOT NULL,
  payee_name VARCHAR(128) NOT NULL,
  payee_iban VARCHAR(34) NOT NULL,
  nickname VARCHAR(64) NOT NULL,
  status TINYINT NOT NULL,
  last_used_at DATETIME NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_beneficiary_customer (customer_id)
);

-- Payments between accounts.
-- table: written rows=30000*sf
CREATE TABLE transfer (
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
-- table: written rows=60000*sf
CREATE TABLE ledger_entry (
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

-- Payment cards.
-- table: written rows=6000*sf
CREATE TABLE card (
  id BIGINT NOT NULL AUTO_INCREMENT,
  account_id BIGINT NOT NULL,
  card_product_id INT NOT NULL,
  pan_token VARCHAR(32) NOT NULL,
  expiry_date DATE NOT NULL,
  status TINYINT NOT NULL,
  contactless_enabled TINYINT NOT NULL,
  last_used_at DATETIME NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  KEY idx_card_account (account_id)
);

-- Card authorisations and their outcome.
-- table: written rows=30000*sf
CREATE TABLE card_transaction (
  id BIGINT NOT NULL AUTO_INCREMENT,
  card_id BIGINT NOT NULL,
  merchant_category_id INT NOT NULL,
  country_id INT NOT NULL,
  channel_id INT NOT NULL,
  currency_id INT NOT NULL,
  amount DECIMAL(18,2) NOT NULL,
  billing_amount DECIMAL(18,2) NOT NULL,
  merchant_name VARCHAR(64) NOT NULL,
  auth_code VARCHAR(12) NOT NULL,
  fraud_score SMALLINT NOT NULL,
  status TINYINT NOT NULL,
  authorised_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_card_tx_card (card_id, authorised_at)
);

-- Loans and their outstanding principal.
-- table: written rows=2000*sf
CREATE TABLE loan (
  id BIGINT NOT NULL AUTO_INCREMENT,
  customer_id BIGINT NOT NULL,
  account_id BIGINT NOT NULL,
  loan_product_id INT NOT NULL,
  currency_id INT NOT NULL,
  principal_amount DECIMAL(18,2) NOT NULL,
  outstanding_amount DECIMAL(18,2) NOT NULL,
  interest_rate DECIMAL(9,6) NOT NULL,
  term_months SMALLINT NOT NULL,
  status TINYINT NOT NULL,
  start_date DATE NOT NULL,
  maturity_date DATE NOT NULL,
  next_due_date DATE NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (id),
  KEY idx_loan_customer (customer_id),
  KEY idx_loan_account (account_id)
);

-- Instalments paid on loans.
-- table: written rows=12000*sf
CREATE TABLE loan_repayment (
  id BIGINT NOT NULL AUTO_INCREMENT,
  loan_id BIGINT NOT NULL,
  ledger_entry_id BIGINT NULL,
  due_date DATE NOT NULL,
  paid_at DATETIME NOT NULL,
  principal_paid DECIMAL(18,2) NOT NULL,
  interest_paid DECIMAL(18,2) NOT NULL,
  fee_paid DECIMAL(18,2) NOT NULL,
  status TINYINT NOT NULL,
  channel_id INT NOT NULL,
  PRIMARY KEY (id),
  KEY idx_repayment_loan (loan_id, due_date)
);

-- Recurring transfers.
-- table: written rows=3000*sf
CREATE TABLE standing_order (
  id BIGINT NOT NULL AUTO_INCREMENT,
  account_id BIGINT NOT NULL,
  beneficiary_id BIGINT NOT NULL,
  amount DECIMAL(18,2) NOT NULL,
  currency_id INT NOT NULL,
  frequency_days SMALLINT NOT NULL,
  next_run_date DATE NOT NULL,
  end_date DATE NULL,
  status TINYINT NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_standing_order_account (account_id)
);

-- Currency conversions executed for customers.
-- table: written rows=5000*sf
CREATE TABLE fx_trade (
  id BIGINT NOT NULL AUTO_INCREMENT,
  account_id BIGINT NOT NULL,
  sell_currency_id INT NOT NULL,
  buy_currency_id INT NOT NULL,
  exchange_rate_id INT NOT NULL,
  sell_amount DECIMAL(18,2) NOT NULL,
  buy_amount DECIMAL(18,2) NOT NULL,
  applied_rate DECIMAL(18,8) NOT NULL,
  margin_bps SMALLINT NOT NULL,
  channel_id INT NOT NULL,
  status TINYINT NOT NULL,
  traded_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_fx_trade_account (account_id, traded_at)
);

-- Who did what, written by every state change.
-- table: written rows=20000*sf
CREATE TABLE audit_log (
  id BIGINT NOT NULL AUTO_INCREMENT,
  customer_id BIGINT NOT NULL,
  channel_id INT NOT NULL,
  action VARCHAR(32) NOT NULL,
  entity VARCHAR(32) NOT NULL,
  entity_id BIGINT NOT NULL,
  detail VARCHAR(255) NOT NULL,
  client_ip VARCHAR(45) NOT NULL,
  created_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_audit_customer (customer_id, created_at)
);
