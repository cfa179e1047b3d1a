"""The site's pages: views, forms, account plumbing and request middleware.

``views`` are small function views (a page, or an HTMX partial); ``forms`` the match forms;
``guides`` the How to play pages; ``vacations`` the profile page's vacation panel;
``auth`` the authentication backends (allauth's adapter is
:mod:`games.runtime.allauth_login_attempts`);
``middleware`` the user's language; ``clientip`` the client address behind trusted proxies;
``ratelimit`` per-user flood limits; ``sitename`` keeps the Sites framework on ``SITE_URL``.
"""
