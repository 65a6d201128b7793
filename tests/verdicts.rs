//! Each misbehaving sample bot gets its documented verdict, on time, and
//! leaves no process behind.
