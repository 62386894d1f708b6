package io.github.distlock.sample.shop;

import java.time.LocalDateTime;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

/**
 * A row of the seed article's {@code purchase_history} table: one purchase that the shop
 * believes it made.
 */
@Entity
@Table(name = "purchase_history")
public class PurchaseHistory {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private @Nullable Long id;

	private String productName = "";

	private String purchaser = "";

	private @Nullable LocalDateTime purchaseTime;

	private int amount;

	protected PurchaseHistory() {
	}

	PurchaseHistory(String productName, String purchaser, LocalDateTime purchaseTime, int amount) {
		this.productName = productName;
		this.purchaser = purchaser;
		this.purchaseTime = purchaseTime;
		this.amount = amount;
	}

	public @Nullable Long getId() {
		return this.id;
	}

	public String getProductName() {
		return this.productName;
	}

	public String getPurchaser() {
		return this.purchaser;
	}

	public @Nullable LocalDateTime getPurchaseTime() {
		return this.purchaseTime;
	}

	public int getAmount() {
		return this.amount;
	}

}
