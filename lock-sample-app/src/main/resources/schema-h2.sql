-- The seed article's tables; product.fence holds the fencing token of the last fenced write.
CREATE TABLE IF NOT EXISTS product (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(255) NOT NULL UNIQUE,
  amount INT NOT NULL,
  fence BIGINT DEFAULT 0 NOT NULL
);

CREATE TABLE IF NOT EXISTS purchase_history (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  product_name VARCHAR(255),
  purchaser VARCHAR(255),
  purchase_time TIMESTAMP(3),
  amount INT
);
