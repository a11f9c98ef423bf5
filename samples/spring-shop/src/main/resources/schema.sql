-- spring-shop: a catalogue (categories, products, tags, reviews) and orders with their lines.
-- Idempotent: the application runs it on every start (spring.sql.init.mode=always).
CREATE TABLE IF NOT EXISTS digit (d INT NOT NULL PRIMARY KEY);

CREATE TABLE IF NOT EXISTS category (
  id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR(64) NOT NULL
);

CREATE TABLE IF NOT EXISTS tag (
  id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR(32) NOT NULL
);

CREATE TABLE IF NOT EXISTS product (
  id BIGINT NOT NULL PRIMARY KEY,
  sku VARCHAR(32) NOT NULL,
  name VARCHAR(128) NOT NULL,
  description VARCHAR(512) NOT NULL,
  price DECIMAL(12,2) NOT NULL,
  stock INT NOT NULL,
  category_id BIGINT NOT NULL,
  created_at DATETIME NOT NULL,
  UNIQUE KEY uk_product_sku (sku),
  KEY idx_product_category_name (category_id, name)
);

CREATE TABLE IF NOT EXISTS product_tag (
  product_id BIGINT NOT NULL,
  tag_id BIGINT NOT NULL,
  PRIMARY KEY (product_id, tag_id)
);

CREATE TABLE IF NOT EXISTS review (
  id BIGINT NOT NULL PRIMARY KEY,
  product_id BIGINT NOT NULL,
  author VARCHAR(64) NOT NULL,
  rating INT NOT NULL,
  body VARCHAR(512) NOT NULL,
  created_at DATETIME NOT NULL,
  KEY idx_review_product (product_id, created_at)
);

CREATE TABLE IF NOT EXISTS customer (
  id BIGINT NOT NULL PRIMARY KEY,
  email VARCHAR(128) NOT NULL,
  name VARCHAR(128) NOT NULL,
  UNIQUE KEY uk_customer_email (email)
);

CREATE TABLE IF NOT EXISTS purchase_order (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL,
  total DECIMAL(14,2) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  KEY idx_order_customer (customer_id, created_at)
);

CREATE TABLE IF NOT EXISTS order_line (
  id BIGINT NOT NULL PRIMARY KEY,
  order_id BIGINT NOT NULL,
  product_id BIGINT NOT NULL,
  quantity INT NOT NULL,
  unit_price DECIMAL(12,2) NOT NULL,
  KEY idx_order_line_order (order_id)
);

-- Hibernate's @GeneratedValue (AUTO) on a dialect without sequences: a table per entity, read
-- and advanced 50 ids at a time (its pooled optimizer).
CREATE TABLE IF NOT EXISTS review_seq (next_val BIGINT);
CREATE TABLE IF NOT EXISTS order_line_seq (next_val BIGINT);
