package io.github.distlock.sample.shop;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

/**
 * A row of the seed article's {@code product} table, plus the fencing token of its last
 * fenced write.
 */
@Entity
@Table(name = "product")
public class Product {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private @Nullable Long id;

	private String name = "";

	private int amount;

	/** The fencing token of the last fenced write; 0 before any. */
	private long fence;

	protected Product() {
	}

	public Product(String name, int amount) {
		this.name = name;
		this.amount = amount;
	}

	public @Nullable Long getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

	public int getAmount() {
		return this.amount;
	}

	public void setAmount(int amount) {
		this.amount = amount;
	}

	public long getFence() {
		return this.fence;
	}

}
