"""`measure(...)`: the bytes one rank of a real training step holds, term by term, for
`ringviz memory --from-job` to set beside the memory model's (docs/memory.md, "Measured against
the model").

Every tensor is counted by its storage, once: views of one storage (Q, K and V split from one
projection, gradients that are views of DDP's buckets) are one allocation, and a parameter saved
for backward is a parameter, not an activation.

- parameters, gradients: the storages of the model's parameters and of their `.grad`;
- optimizer states: the optimizer's per-parameter state tensors of more than one element (Adam's
  momentum and variance), and apart from them its scalar step counters; for
  ZeroRedundancyOptimizer, its local optimizer's: the shard this rank updates;
- activations: every tensor autograd saves for backward (`saved_tensors_hooks`), attributed to
  the layer whose forward saved it first; saves outside every layer (embedding, final norm, head,
  loss) are `outside_layers`;
- recomputed: what is saved again during backward (torch.utils.checkpoint reruns a layer, or its
  attention, there), per layer;
- the peak: the most bytes of saved tensors alive at once over the step, a storage counted while
  any tensor autograd saved from it is alive.
"""

import weakref

import torch


class _SavedTensorLedger:
    """Counts what autograd saves, by storage, per layer and phase, and what is alive."""

    def __init__(self, layers, excluded_storages):
        self.layers = layers
        self.excluded = excluded_storages
        self.current = None  # index of the layer running, None outside every layer
        self.phase = "forward"
        self.forward = [0] * len(layers)
        self.recomputed = [0] * len(layers)
        self.outside = 0
        self._seen_forward = set()
        self._seen_backward = {}
        self._alive = {}  # storage pointer -> [tensors alive, bytes]
        self.alive_bytes = 0
        self.peak_bytes = 0
        self._hooks = []

    def watch(self):
        for index, layer in enumerate(self.layers):
            # Every module of the layer marks it: a checkpointed layer's outer module does not run
            # again in backward, the modules inside it do.
            for module in layer.modules():
                self._hooks.append(module.register_forward_pre_hook(self._entering(index)))
            self._hooks.append(layer.register_forward_hook(self._leaving))

    def unwatch(self):
        for hook in self._hooks:
            hook.remove()
        self._hooks = []

    def _entering(self, index):
        def hook(module, inputs):
            self.current = index
        return hook

    def _leaving(self, module, inputs, output):
        self.current = None

    def pack(self, tensor):
        storage = tensor.storage()
        pointer = storage.data_ptr()
        if pointer in self.excluded or storage.nbytes() == 0:
            return tensor
        size = storage.nbytes()
        if self.phase == "forward":
            if pointer not in self._seen_forward:
                self._seen_forward.add(pointer)
                if self.current is None:
                    self.outside += size
                else:
                    self.forward[self.current] += size
        elif self.current is not None:
            seen = self._seen_backward.setdefault(self.current, set())
            if pointer not in seen:
                seen.add(pointer)
                self.recomputed[self.current] += size
        entry = self._alive.get(pointer)
        if entry is None:
            entry = self._alive[pointer] = [0, size]
            self.alive_bytes += size
            self.peak_bytes = max(self.peak_bytes, self.alive_bytes)
        entry[0] += 1
        weakref.finalize(tensor, self._released, pointer)
        return tensor

    def _released(self, pointer):
        entry = self._alive.get(pointer)
        if entry is None:
            return
        entry[0] -= 1
        if entry[0] == 0:
            del self._alive[pointer]
            self.alive_bytes -= entry[1]


def _storage_bytes(tensors):
    """Bytes of the distinct storages under `tensors`."""
    storages = {}
    for tensor in tensors:
        if tensor is None:
            continue
        storage = tensor.storage()
        storages[storage.data_ptr()] = storage.nbytes()
    return sum(storages.values())


def _local_optimizer(optimizer):
    """ZeroRedundancyOptimizer keeps the states of this rank's shard in its local optimizer."""
    return getattr(optimizer, "optim", optimizer)


def _optimizer_bytes(optimizer):
    states, counters = [], []
    for per_parameter in _local_optimizer(optimizer).state.values():
        for value in per_parameter.values():
            if torch.is_tensor(value):
                (states if value.numel() > 1 else counters).append(value)
    return _storage_bytes(states), _storage_bytes(counters), len(counters)


def _element_size(tensors, default):
    sizes = {t.element_size() for t in tensors}
    return sizes.pop() if len(sizes) == 1 else default


def measure(model, optimizer, forward_loss, layers, shape, strategy, recompute, label=None,
            world_size=None):
    """Runs one training step and returns what it held, as a dict for the job document.

    model: the module trained (a DistributedDataParallel or a plain one);
    optimizer: its optimizer (torch.optim or ZeroRedundancyOptimizer);
    forward_loss: a function of no arguments that runs forward and returns the loss;
    layers: the transformer layers, in order (their saves are counted per layer);
    shape: the model as the formulas see it: parameters, layers, hidden, heads, ffn, vocab, seq,
        micro_batch, dropout;
    strategy: "ddp" or "zero1"; recompute: "none", "selective" or "full" (what the model does;
        recorded, not imposed);
    label: how tables name the configuration.
    """
    parameters = list(dict((p.storage().data_ptr(), p) for p in model.parameters()).values())
    ledger = _SavedTensorLedger(list(layers), {p.storage().data_ptr() for p in parameters})
    optimizer.zero_grad(set_to_none=True)
    ledger.watch()
    try:
        with torch.autograd.graph.saved_tensors_hooks(ledger.pack, lambda tensor: tensor):
            loss = forward_loss()
            ledger.current = None
            ledger.phase = "backward"
            loss.backward()
            del loss
    finally:
        ledger.unwatch()
    optimizer.step()

    optimizer_states, step_counters, counted_tensors = _optimizer_bytes(optimizer)
    with_gradients = [p for p in parameters if p.grad is not None]
    world = world_size if world_size is not None else (
        torch.distributed.get_world_size() if torch.distributed.is_initialized() else 1)
    measured = {
        "parameters": _storage_bytes(parameters),
        "gradients": _storage_bytes([p.grad for p in parameters]),
        "optimizer_states": optimizer_states,
        "optimizer_step_counters": step_counters,
        "optimizer_parameter_tensors": counted_tensors,
        "largest_parameter_tensor": max(p.numel() for p in parameters),
        "activations_per_layer": ledger.forward,
        "recomputed_per_layer": ledger.recomputed,
        "outside_layers": ledger.outside,
        "activations_peak": ledger.peak_bytes,
    }
    return {
        "label": label or "%s, recompute %s" % (strategy, recompute),
        "strategy": strategy,
        "recompute": recompute,
        "world_size": world,
        "shape": dict(shape),
        "element_bytes": {
            "parameters": _element_size(parameters, 4),
            "gradients": _element_size([p.grad for p in with_gradients], 4),
            "activations": 4 if next(iter(parameters)).dtype == torch.float32 else 2,
            "masks": 1,
        },
        "measured": measured,
    }
