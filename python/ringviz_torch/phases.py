"""Compute spans around the collectives: forward, backward and the optimizer step.

- forward: pre and post hooks on the model (the module inside DDP, so DDP's own bookkeeping
  is not counted as compute);
- backward: from when autograd reaches the model's output (a hook on that tensor's gradient)
  to the end of the autograd pass (a callback queued on the engine then; it runs before the
  callback DDP queued later, which waits for the last buckets' AllReduce);
- optimizer: around `optimizer.step` (torch 1.13 has no step hooks, so the recorder puts a
  timing wrapper on the instance and removes it when it closes).
"""

import torch
from torch.autograd import Variable


def _first_tensor_needing_grad(value):
    if isinstance(value, torch.Tensor):
        return value if value.requires_grad else None
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        for item in value:
            found = _first_tensor_needing_grad(item)
            if found is not None:
                return found
    return None


class PhaseRecorder:
    def __init__(self, log, clock):
        self._log = log
        self._clock = clock
        self._handles = []
        self._forward_start_ns = None
        self._optimizer = None
        self.recording = True

    def watch_model(self, module):
        self._handles.append(module.register_forward_pre_hook(self._before_forward))
        self._handles.append(module.register_forward_hook(self._after_forward))

    def watch_optimizer(self, optimizer):
        step = optimizer.step
        self._own_step = optimizer.__dict__.get("step")  # an instance attribute to put back
        recorder = self

        def timed_step(*args, **kwargs):
            start = recorder._clock.now_ns()
            try:
                return step(*args, **kwargs)
            finally:
                if recorder.recording:
                    recorder._log.add_compute("optimizer", start, recorder._clock.now_ns())

        optimizer.step = timed_step
        self._optimizer = optimizer

    def stop(self):
        self.recording = False
        for handle in self._handles:
            handle.remove()
        self._handles = []
        if self._optimizer is not None:
            if self._own_step is not None:
                self._optimizer.step = self._own_step
            else:
                del self._optimizer.step  # the class's step shows through again
            self._optimizer = None

    def _before_forward(self, module, inputs):
        self._forward_start_ns = self._clock.now_ns()

    def _after_forward(self, module, inputs, output):
        end = self._clock.now_ns()
        if self._forward_start_ns is None or not self.recording:
            return
        self._log.add_compute("forward", self._forward_start_ns, end)
        self._forward_start_ns = None
        tensor = _first_tensor_needing_grad(output)
        if tensor is not None:
            tensor.register_hook(self._backward_reached_output)

    def _backward_reached_output(self, grad):
        start = self._clock.now_ns()

        def backward_done():
            if self.recording:
                self._log.add_compute("backward", start, self._clock.now_ns())

        Variable._execution_engine.queue_callback(backward_done)
        return None
