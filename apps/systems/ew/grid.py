"""EW-System's NA × ND resolution grid as the GM edits it (``GameSystem.resolution_grid_form``):
one number per cell, the whole grid checked by the engine."""

from __future__ import annotations

from typing import Any

from django import forms

from apps.campaigns.models import Campaign
from apps.core.refusals import rules_message
from apps.rules import ew
from apps.rules.errors import RulesError


class ResolutionGridForm(forms.Form):
    """The EW NA × ND grid, one number per cell; the rules engine checks the whole grid."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        table = campaign.house().table
        self.size = len(table.grid)
        for na, row in enumerate(table.grid):
            for nd, score in enumerate(row):
                self.fields[f"c{na}_{nd}"] = forms.IntegerField(
                    label=f"NA {na} / ND {nd}",
                    initial=score,
                    min_value=ew.SCORE_MIN,
                    max_value=ew.SCORE_MAX,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )

    @property
    def is_default(self) -> bool:
        """The campaign plays with the default grid (the admin's, else the formula's)."""
        return self.campaign.house().resolution_grid is None

    @property
    def nds(self) -> range:
        """The columns' ND, for the template's header."""
        return range(self.size)

    def rows(self):
        """Bound fields row by row (NA), for the template."""
        return [(na, [self[f"c{na}_{nd}"] for nd in range(self.size)]) for na in range(self.size)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        grid = [[cleaned[f"c{na}_{nd}"] for nd in range(self.size)] for na in range(self.size)]
        data = self.campaign.house().to_dict()
        data["resolution_grid"] = grid
        try:
            self.house = ew.EwHouseRules.from_dict(data)
        except RulesError as error:
            self.add_error(None, rules_message(error))
        return cleaned
