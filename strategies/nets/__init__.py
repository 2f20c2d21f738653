"""The learned players' networks in one place: what each reads (features: learned's, afterstate:
selfplay's, table_value: judge's), the dense layers every forward pass sums with (dense), and the
one model file format they are stored in (modelfile). Players reach them from strategies/; training
(kiai.training) writes the files; nothing here imports a training module."""
