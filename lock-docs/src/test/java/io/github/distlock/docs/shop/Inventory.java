package io.github.distlock.docs.shop;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The stock of each product, in a table {@code stock (sku, amount, fence)}.
 */
@Repository
public class Inventory {

	private final JdbcClient jdbc;

	public Inventory(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	// tag::inventory[]
	public int amount(String sku) {
		return this.jdbc.sql("SELECT amount FROM stock WHERE sku = ?").param(sku).query(Integer.class).single();
	}

	public void save(String sku, int amount) {
		this.jdbc.sql("UPDATE stock SET amount = ? WHERE sku = ?").params(amount, sku).update();
	}

	public void stock(String sku, int amount) {
		this.jdbc.sql("MERGE INTO stock (sku, amount, fence) KEY (sku) VALUES (?, ?, 0)").params(sku, amount).update();
	}
	// end::inventory[]

	// tag::save-fenced[]
	/** Writes the amount only if no holder with a newer fencing token wrote since. */
	public boolean saveFenced(String sku, int amount, long fencingToken) {
		return this.jdbc.sql("UPDATE stock SET amount = :amount, fence = :token WHERE sku = :sku AND fence < :token")
			.param("amount", amount)
			.param("token", fencingToken)
			.param("sku", sku)
			.update() == 1;
	}
	// end::save-fenced[]

}
