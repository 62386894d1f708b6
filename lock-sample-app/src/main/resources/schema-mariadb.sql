-- The seed article's tables; product.fence holds the fencing token of the last fenced write.
CREATE TABLE IF NOT EXISTS product (
  id BIGINT NOT NULL AUTO_INCREMENT,
  name VARCHAR(255) NOT NULL,
  amount INT NOT NULL,
  fence BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  UNIQUE KEY uk_product_name (name)
);

CREATE TABLE IF NOT EXISTS purchase_history (
  id BIGINT NOT NULL AUTO_INCREMENT,
  product_name VARCHAR(255),
  purchaser VARCHAR(255),
  purchase_time DATETIME(3),
  amount INT,
  PRIMARY KEY (id)
);
