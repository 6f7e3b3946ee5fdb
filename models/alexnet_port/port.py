"""The demo AlexNet ported the way another framework lays it out (the reproduction flow's port).

The reference is models/alexnet/common.py's AlexNet (PyTorch: channels-first activations,
OIHW convolution kernels, [out, in] Linear weights). The port computes the same function
with PyTorch's functional operations and its own layouts:

* activations are channels-last (NHWC): a convolution is an im2col over NHWC windows times
  the kernel, max-pooling a reshape and a max over each 2 x 2 window;
* convolution kernels are HWIO, Linear weights [in, out] (as Paddle keeps them);
* its modules are named and nested its own way: backbone.stage1..stage3 group the
  convolutions (the reference's `features` is one flat Sequential), head.fc1.. is the
  classifier. PaDiff needs a LayerMap to pair the stages (repro/layer_map.yaml).

Its weights come from the reference's initial weights, converted (from_reference), unless a
switch asks for its own default initialisation (init_own_defaults). The switches of
MISALIGNMENTS each plant one mistake a port can make, for the flow to catch.
"""
import math

import torch
import torch.nn.functional as F
from torch import nn

# The mistakes a port can make, one switch each (run_alignment.py --misalign NAME).
MISALIGNMENTS = {
    "own-init": "the port's own default initialisation (Xavier-uniform weights, zero biases)",
    "drop-bias": "the second convolution (backbone.stage2.conv) drops its bias",
    "lr-schedule": "the learning rate decays one step later than the reference's",
}


def conv2d_nhwc(x, kernel, bias, padding):
    """Stride-1 convolution of NHWC `x` with an HWIO kernel: im2col over the windows, then a matmul."""
    kh, kw, cin, cout = kernel.shape
    x = F.pad(x, (0, 0, padding, padding, padding, padding))  # C unpadded, then W, then H
    n, height, width, _ = x.shape
    out_h, out_w = height - kh + 1, width - kw + 1
    windows = [x[:, i:i + out_h, j:j + out_w, :] for i in range(kh) for j in range(kw)]
    patches = torch.stack(windows, dim=3).reshape(n * out_h * out_w, kh * kw * cin)
    y = (patches @ kernel.reshape(kh * kw * cin, cout)).reshape(n, out_h, out_w, cout)
    return y if bias is None else y + bias


class Conv2D(nn.Module):
    def __init__(self, cin, cout, size, padding, use_bias=True):
        super().__init__()
        self.padding = padding
        self.weight = nn.Parameter(torch.empty(size, size, cin, cout))  # HWIO
        self.bias = nn.Parameter(torch.empty(cout)) if use_bias else None

    def forward(self, x):
        return conv2d_nhwc(x, self.weight, self.bias, self.padding)


class ReLU(nn.Module):
    def forward(self, x):
        return torch.relu(x)


class MaxPool2D(nn.Module):
    """2 x 2, stride 2, on NHWC: the window's two axes are split off and reduced."""

    def forward(self, x):
        n, height, width, c = x.shape
        return x.reshape(n, height // 2, 2, width // 2, 2, c).amax(dim=(2, 4))


class Flatten(nn.Module):
    """NHWC flattens in (h, w, c) order: the first Linear's rows are ordered so."""

    def forward(self, x):
        return x.reshape(x.shape[0], -1)


class Linear(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(cin, cout))  # [in, out]
        self.bias = nn.Parameter(torch.empty(cout))

    def forward(self, x):
        return x @ self.weight + self.bias


class Dropout(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return F.dropout(x, self.p, self.training)


class ConvBlock(nn.Module):
    """A convolution, its activation and a pool: a level the reference does not have (its
    `features` is one flat Sequential), which the LayerMap splices out for PaDiff."""

    def __init__(self, conv):
        super().__init__()
        self.conv = conv
        self.act = ReLU()
        self.pool = MaxPool2D()

    def forward(self, x):
        return self.pool(self.act(self.conv(x)))


class Backbone(nn.Module):
    def __init__(self, drop_bias):
        super().__init__()
        self.stage1 = ConvBlock(Conv2D(3, 16, 5, 2))
        self.stage2 = ConvBlock(Conv2D(16, 32, 3, 1, use_bias=not drop_bias))
        self.stage3 = nn.Sequential(Conv2D(32, 48, 3, 1), ReLU(), Conv2D(48, 48, 3, 1), ReLU(),
                                    Conv2D(48, 32, 3, 1), ReLU(), MaxPool2D())

    def forward(self, x):
        return self.stage3(self.stage2(self.stage1(x)))


class Head(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.flatten = Flatten()
        self.fc1 = Linear(4 * 4 * 32, 128)
        self.act1 = ReLU()
        self.drop = Dropout(0.2)
        self.fc2 = Linear(128, 64)
        self.act2 = ReLU()
        self.logits = Linear(64, num_classes)

    def forward(self, x):
        x = self.drop(self.act1(self.fc1(self.flatten(x))))
        return self.logits(self.act2(self.fc2(x)))


class PortNet(nn.Module):
    """Takes NHWC images, returns logits."""

    def __init__(self, num_classes, drop_bias=False):
        super().__init__()
        self.backbone = Backbone(drop_bias)
        self.head = Head(num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


# The port's parameter names and the reference's (common.AlexNet's state_dict), in order.
CONV_NAMES = [("backbone.stage1.conv", "features.0"), ("backbone.stage2.conv", "features.3"),
              ("backbone.stage3.0", "features.6"), ("backbone.stage3.2", "features.8"),
              ("backbone.stage3.4", "features.10")]
LINEAR_NAMES = [("head.fc1", "classifier.1"), ("head.fc2", "classifier.4"), ("head.logits", "classifier.6")]
FIRST_LINEAR_INPUT = (32, 4, 4)  # the reference flattens (c, h, w) into head.fc1's input


def reference_name(port_name):
    """features.3.weight for backbone.stage2.conv.weight."""
    layer, _, param = port_name.rpartition(".")
    return dict(CONV_NAMES + LINEAR_NAMES)[layer] + "." + param


def to_port_layout(port_name, value):
    """A reference tensor (OIHW kernel, [out, in] weight, bias) in the port's layout."""
    if not port_name.endswith(".weight"):
        return value
    if value.dim() == 4:
        return value.permute(2, 3, 1, 0)  # OIHW -> HWIO
    if port_name == "head.fc1.weight":  # [out, (c, h, w)] -> [(h, w, c), out]
        c, h, w = FIRST_LINEAR_INPUT
        return value.reshape(-1, c, h, w).permute(2, 3, 1, 0).reshape(h * w * c, -1)
    return value.t()


def to_reference_layout(port_name, value):
    """The other way: a port tensor (a gradient, say) as the reference lays it out."""
    if not port_name.endswith(".weight"):
        return value
    if value.dim() == 4:
        return value.permute(3, 2, 0, 1)  # HWIO -> OIHW
    if port_name == "head.fc1.weight":
        c, h, w = FIRST_LINEAR_INPUT
        return value.reshape(h, w, c, -1).permute(3, 2, 0, 1).reshape(-1, c * h * w)
    return value.t()


@torch.no_grad()
def init_from_reference(port, reference):
    """The guide's initialisation alignment: the reference's initial weights, converted."""
    source = reference.state_dict()
    for name, param in port.named_parameters():
        param.copy_(to_port_layout(name, source[reference_name(name)]))


@torch.no_grad()
def init_own_defaults(port):
    """The port's own default: Xavier-uniform weights, zero biases."""
    for name, param in port.named_parameters():
        if name.endswith(".bias"):
            param.zero_()
            continue
        receptive = param[..., 0, 0].numel() if param.dim() == 4 else 1
        fan_in, fan_out = param.shape[-2] * receptive, param.shape[-1] * receptive
        bound = math.sqrt(6.0 / (fan_in + fan_out))
        param.uniform_(-bound, bound)


def lr_at(step, base_lr, decay_step, misaligned=False):
    """Step decay by 10 at `decay_step` (the misaligned port decays one step later)."""
    return base_lr if step < decay_step + (1 if misaligned else 0) else base_lr * 0.1


class Momentum:
    """SGD with momentum as the port's framework writes it: v = mu * v + g; p -= lr * v."""

    def __init__(self, params, momentum=0.9):
        self.params = list(params)
        self.momentum = momentum
        self.velocity = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self, lr):
        for param, velocity in zip(self.params, self.velocity):
            velocity.mul_(self.momentum).add_(param.grad)
            param.sub_(lr * velocity)

    def zero_grad(self):
        for param in self.params:
            param.grad = None


class Adam:
    """Adam as the port's framework writes it (bias-corrected moments, eps outside the root)."""

    def __init__(self, params, beta1=0.9, beta2=0.999, epsilon=1e-8):
        self.params = list(params)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.moment1 = [torch.zeros_like(p) for p in self.params]
        self.moment2 = [torch.zeros_like(p) for p in self.params]
        self.steps = 0

    @torch.no_grad()
    def step(self, lr):
        self.steps += 1
        correction1 = 1 - self.beta1 ** self.steps
        correction2 = 1 - self.beta2 ** self.steps
        for param, m1, m2 in zip(self.params, self.moment1, self.moment2):
            m1.mul_(self.beta1).add_(param.grad, alpha=1 - self.beta1)
            m2.mul_(self.beta2).addcmul_(param.grad, param.grad, value=1 - self.beta2)
            denominator = (m2.sqrt() / math.sqrt(correction2)).add_(self.epsilon)
            param.addcdiv_(m1, denominator, value=-lr / correction1)

    def zero_grad(self):
        for param in self.params:
            param.grad = None
