-- Demo catalogue: 10 categories of 30 products (300), 20 tags, 3 tags and 2 reviews a product,
-- 100 customers, 1,000,000 of each product in stock. Idempotent (INSERT IGNORE on primary keys).
INSERT IGNORE INTO digit (d) VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);

INSERT IGNORE INTO category (id, name)
  SELECT d + 1, CONCAT('Category ', d + 1) FROM digit;

INSERT IGNORE INTO tag (id, name)
  SELECT a.d * 10 + b.d + 1, CONCAT('tag-', a.d * 10 + b.d + 1) FROM digit a, digit b WHERE a.d < 2;

INSERT IGNORE INTO product (id, sku, name, description, price, stock, category_id, created_at)
  SELECT n, CONCAT('SKU-', LPAD(n, 6, '0')), CONCAT('Product ', LPAD(n, 4, '0')),
         CONCAT('A fine product number ', n, ', sold by spring-shop.'),
         5 + (n % 50), 1000000, (n - 1) % 10 + 1, '2026-01-01 00:00:00'
  FROM (SELECT a.d * 100 + b.d * 10 + c.d + 1 AS n FROM digit a, digit b, digit c WHERE a.d < 3) p;

INSERT IGNORE INTO product_tag (product_id, tag_id)
  SELECT p.id, (p.id + k.d * 7) % 20 + 1 FROM product p, digit k WHERE k.d < 3;

INSERT IGNORE INTO review (id, product_id, author, rating, body, created_at)
  SELECT (p.id - 1) * 2 + k.d + 1, p.id, CONCAT('reader', k.d), (p.id + k.d) % 5 + 1,
         'Does what it says.', '2026-01-02 00:00:00'
  FROM product p, digit k WHERE k.d < 2;

INSERT IGNORE INTO customer (id, email, name)
  SELECT a.d * 10 + b.d + 1, CONCAT('customer', a.d * 10 + b.d + 1, '@example.com'),
         CONCAT('Customer ', a.d * 10 + b.d + 1)
  FROM digit a, digit b;

-- The id tables start above the demo data's ids.
INSERT INTO review_seq (next_val) SELECT 10000 FROM digit WHERE d = 0 AND NOT EXISTS (SELECT 1 FROM review_seq);
INSERT INTO order_line_seq (next_val) SELECT 1 FROM digit WHERE d = 0 AND NOT EXISTS (SELECT 1 FROM order_line_seq);
