"""Shapes used by the README examples."""

import math


class Circle:
    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return math.pi * self.radius ** 2


def parse_circle(text: str) -> Circle:
    # TODO: validate the input
    return Circle(float(text))
