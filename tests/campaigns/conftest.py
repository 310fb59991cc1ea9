# The campaigns with a fight of each system that the export tests build, for the other
# import tests too (tests/campaigns/test_import_bad_input.py).
from tests.campaigns.test_transfer import aethoria_campaign_full, ew_campaign  # noqa: F401
