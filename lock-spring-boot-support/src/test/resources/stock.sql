create table product (name varchar(64) primary key, amount int not null);
insert into product (name, amount) values ('apple', 100);
